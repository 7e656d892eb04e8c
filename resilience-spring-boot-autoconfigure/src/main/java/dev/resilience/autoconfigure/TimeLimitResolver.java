package dev.resilience.autoconfigure;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import dev.resilience.annotation.TimeLimited;
import dev.resilience.registry.InvalidResiliencePolicyException;
import dev.resilience.registry.PolicyResolver;
import org.jspecify.annotations.Nullable;

/**
 * Resolves the time limit of a time limiter from, in order of precedence, its
 * {@code resilience.time-limiter.instances.<name>} properties, its {@link TimeLimited}
 * annotation, the {@code resilience.time-limiter.defaults} properties and
 * {@link PolicyResolver#DEFAULT_TIME_LIMIT}. Thread-safe.
 */
final class TimeLimitResolver {

    private static final String PREFIX = "resilience.time-limiter";

    private final ResilienceProperties properties;

    TimeLimitResolver(ResilienceProperties properties) {
        this.properties = properties;
    }

    /**
     * Resolves the time limit of a time limiter.
     * @param name the time limiter's name
     * @param annotation the annotation on the method, or {@code null} for properties
     * only; an empty timeout leaves its setting unset
     * @return the time limit, positive
     * @throws InvalidResiliencePolicyException if the setting is invalid
     */
    Duration resolve(String name, @Nullable TimeLimited annotation) {
        ResilienceProperties.TimeLimiter timeLimiter = this.properties.getTimeLimiter();
        SettingSources<TimeLimiterSettings> sources = new SettingSources<>(PREFIX, name,
                timeLimiter.getInstances().get(name), timeLimiter.getDefaults());
        AtomicReference<Duration> timeout = new AtomicReference<>(PolicyResolver.DEFAULT_TIME_LIMIT);
        sources
            .pick("timeout", TimeLimiterSettings::getTimeout, (annotation != null)
                    ? SettingSources.annotationDuration(name, "@TimeLimited(timeout)", annotation.timeout()) : null,
                    PolicyResolver.DEFAULT_TIME_LIMIT)
            .applyTo(name, (value) -> {
                if (value == null || value.isNegative() || value.isZero()) {
                    throw new IllegalArgumentException("timeout must be positive, was " + value);
                }
                timeout.set(value);
            }, "Use a positive duration, such as \"2s\".");
        return timeout.get();
    }

}
