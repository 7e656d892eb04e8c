package dev.resilience.autoconfigure;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

import dev.resilience.annotation.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.bulkhead.BulkheadType;
import dev.resilience.core.time.Durations;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.jspecify.annotations.Nullable;

/**
 * Resolves the {@link BulkheadConfig} of a bulkhead from, in order of precedence, its
 * {@code resilience.bulkhead.instances.<name>} properties, its {@link Bulkhead}
 * annotation (type, max concurrent calls and max wait; the adaptive settings are YAML
 * only), the {@code resilience.bulkhead.defaults} properties and the core's built-in
 * defaults. Thread-safe.
 */
final class BulkheadConfigResolver {

    private static final String PREFIX = "resilience.bulkhead";

    private static final String LIMIT_FIX = "Use from " + BulkheadConfig.LOWEST_LIMIT + " to "
            + BulkheadConfig.HIGHEST_LIMIT + " calls.";

    private final ResilienceProperties properties;

    BulkheadConfigResolver(ResilienceProperties properties) {
        this.properties = properties;
    }

    /**
     * Resolves the configuration of a bulkhead.
     * @param name the bulkhead's name
     * @param annotation the annotation on the method, or {@code null} for properties
     * only; a zero or empty attribute leaves its setting unset
     * @return the configuration
     * @throws InvalidResiliencePolicyException if a setting is invalid
     */
    BulkheadConfig resolve(String name, @Nullable Bulkhead annotation) {
        ResilienceProperties.Bulkhead bulkhead = this.properties.getBulkhead();
        SettingSources<BulkheadSettings> sources = new SettingSources<>(PREFIX, name, bulkhead.getInstances().get(name),
                bulkhead.getDefaults());
        BulkheadConfig.Builder builder = BulkheadConfig.builder();
        Setting<BulkheadType> type = sources.pick("type", BulkheadSettings::getType,
                (annotation != null) ? annotationType(name, annotation.type()) : null, BulkheadConfig.DEFAULT_TYPE);
        builder.type(Objects.requireNonNull(type.value()));
        Setting<Integer> maxConcurrentCalls = sources.pick("max-concurrent-calls",
                BulkheadSettings::getMaxConcurrentCalls,
                (annotation != null && annotation.maxConcurrentCalls() != 0)
                        ? new Setting<>("@Bulkhead(maxConcurrentCalls)", annotation.maxConcurrentCalls()) : null,
                BulkheadConfig.DEFAULT_MAX_CONCURRENT_CALLS);
        maxConcurrentCalls.applyTo(name, builder::maxConcurrentCalls, LIMIT_FIX);
        Setting<Duration> maxWait = sources.pick("max-wait", BulkheadSettings::getMaxWait,
                (annotation != null)
                        ? SettingSources.annotationDuration(name, "@Bulkhead(maxWait)", annotation.maxWait()) : null,
                BulkheadConfig.DEFAULT_MAX_WAIT);
        maxWait.applyTo(name, builder::maxWait, "Use 0 to refuse at once, or a positive duration of at most "
                + Durations.format(BulkheadConfig.MAX_MAX_WAIT) + ", such as \"100ms\".");
        Setting<Integer> minLimit = sources.pick("min-limit", BulkheadSettings::getMinLimit, null,
                BulkheadConfig.DEFAULT_MIN_LIMIT);
        minLimit.applyTo(name, builder::minLimit, LIMIT_FIX);
        Setting<Integer> maxLimit = sources.pick("max-limit", BulkheadSettings::getMaxLimit, null,
                BulkheadConfig.DEFAULT_MAX_LIMIT);
        maxLimit.applyTo(name, builder::maxLimit, LIMIT_FIX);
        builder.algorithm(Objects.requireNonNull(
                sources.pick("algorithm", BulkheadSettings::getAlgorithm, null, BulkheadConfig.DEFAULT_ALGORITHM)
                    .value()));
        sources
            .pick("latency-threshold", BulkheadSettings::getLatencyThreshold, null,
                    BulkheadConfig.DEFAULT_LATENCY_THRESHOLD)
            .applyTo(name, builder::latencyThreshold, "Use a positive duration up to "
                    + Durations.format(BulkheadConfig.MAX_LATENCY_THRESHOLD)
                    + ", such as \"500ms\": the average latency of a window of calls from which aimd backs off.");
        Integer min = Objects.requireNonNull(minLimit.value());
        Integer max = Objects.requireNonNull(maxLimit.value());
        minLimit.require(name, min <= max, "it is above " + maxLimit.source() + " (" + max + ")",
                "Make min-limit at most max-limit.");
        try {
            return builder.build();
        }
        catch (IllegalArgumentException ex) {
            throw maxConcurrentCalls.invalid(name, ex.getMessage(),
                    "An adaptive bulkhead starts at max-concurrent-calls: use a value from min-limit (" + min
                            + ") to max-limit (" + max + ").",
                    ex);
        }
    }

    private static @Nullable Setting<BulkheadType> annotationType(String subject, String text) {
        if (text.isBlank()) {
            return null;
        }
        try {
            return new Setting<>("@Bulkhead(type)", BulkheadType.valueOf(text.strip().toUpperCase(Locale.ROOT)));
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidResiliencePolicyException(subject, "@Bulkhead(type)", text,
                    "'" + text + "' is not a bulkhead type", "Use \"fixed\" or \"adaptive\", or leave it empty.", ex);
        }
    }

}
