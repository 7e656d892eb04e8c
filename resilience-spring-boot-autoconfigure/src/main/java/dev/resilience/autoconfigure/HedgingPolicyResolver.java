package dev.resilience.autoconfigure;

import dev.resilience.annotation.Hedged;
import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.time.Durations;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.jspecify.annotations.Nullable;

/**
 * Resolves the {@link HedgingPolicy} of a hedging instance from, in order of precedence,
 * its {@code resilience.hedging.instances.<name>} properties, its {@link Hedged}
 * annotation, the {@code resilience.hedging.defaults} properties and the core's built-in
 * defaults. Thread-safe.
 */
final class HedgingPolicyResolver {

    private static final String PREFIX = "resilience.hedging";

    private final ResilienceProperties properties;

    HedgingPolicyResolver(ResilienceProperties properties) {
        this.properties = properties;
    }

    /**
     * Resolves the policy of a hedging instance.
     * @param name the hedging instance's name
     * @param annotation the annotation on the method, or {@code null} for properties
     * only; a zero or empty attribute leaves its setting unset
     * @return the policy
     * @throws InvalidResiliencePolicyException if a setting is invalid
     */
    HedgingPolicy resolve(String name, @Nullable Hedged annotation) {
        ResilienceProperties.Hedging hedging = this.properties.getHedging();
        SettingSources<HedgingSettings> sources = new SettingSources<>(PREFIX, name, hedging.getInstances().get(name),
                hedging.getDefaults());
        HedgingPolicy.Builder builder = HedgingPolicy.builder();
        sources
            .pick("delay", HedgingSettings::getDelay,
                    (annotation != null) ? SettingSources.annotationDuration(name, "@Hedged(delay)", annotation.delay())
                            : null,
                    HedgingPolicy.DEFAULT_DELAY)
            .applyTo(name, builder::delay,
                    "Use a positive delay of at most " + Durations.format(HedgingPolicy.MAX_DELAY)
                            + ", such as \"100ms\": about the latency of the method's slowest usual calls (its p95).");
        sources
            .pick("max-hedges", HedgingSettings::getMaxHedges,
                    (annotation != null && annotation.maxHedges() != 0)
                            ? new Setting<>("@Hedged(maxHedges)", annotation.maxHedges()) : null,
                    HedgingPolicy.DEFAULT_MAX_HEDGES)
            .applyTo(name, builder::maxHedges, "Use from " + HedgingPolicy.LOWEST_MAX_HEDGES + " to "
                    + HedgingPolicy.HIGHEST_MAX_HEDGES + " hedges per attempt; 1 is usually enough.");
        return builder.build();
    }

}
