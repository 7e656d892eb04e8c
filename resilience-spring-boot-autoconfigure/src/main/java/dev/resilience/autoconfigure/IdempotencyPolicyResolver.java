package dev.resilience.autoconfigure;

import java.time.Duration;
import java.util.Objects;

import dev.resilience.annotation.Idempotent;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.registry.InvalidResiliencePolicyException;

/**
 * Resolves the {@link IdempotencyPolicy} of an {@link Idempotent} method: the
 * annotation's {@code ttl} if set, else {@code resilience.idempotency.ttl}; the
 * in-progress lease from {@code resilience.idempotency.in-progress-ttl}; the in-progress
 * behaviour from the annotation. Thread-safe.
 */
public class IdempotencyPolicyResolver {

    private static final String FIX = "Use a positive duration such as \"24h\" or \"60s\".";

    private final ResilienceProperties properties;

    /**
     * Creates a resolver.
     * @param properties the bound properties
     */
    public IdempotencyPolicyResolver(ResilienceProperties properties) {
        this.properties = properties;
    }

    /**
     * Resolves the policy of an idempotent method.
     * @param name the name under which the method's keys are stored and measured
     * @param annotation the annotation on the method
     * @param store where claims and results are kept
     * @return the policy
     * @throws InvalidResiliencePolicyException if a duration is invalid
     */
    public IdempotencyPolicy resolve(String name, Idempotent annotation, IdempotencyStore store) {
        ResilienceProperties.Idempotency idempotency = this.properties.getIdempotency();
        Setting<Duration> ttl = SettingSources.annotationDuration(name, "@Idempotent(ttl)", annotation.ttl());
        if (ttl == null) {
            ttl = new Setting<>("resilience.idempotency.ttl", idempotency.getTtl());
        }
        Setting<Duration> inProgressTtl = new Setting<>("resilience.idempotency.in-progress-ttl",
                idempotency.getInProgressTtl());
        Duration ttlValue = requirePositive(name, ttl);
        Duration inProgressTtlValue = requirePositive(name, inProgressTtl);
        return new IdempotencyPolicy(name, store, ttlValue, inProgressTtlValue, annotation.onInProgress());
    }

    private static Duration requirePositive(String name, Setting<Duration> setting) {
        Duration duration = Objects.requireNonNull(setting.value());
        setting.require(name, !duration.isNegative() && !duration.isZero(), "the duration must be positive", FIX);
        return duration;
    }

}
