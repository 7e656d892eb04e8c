package dev.resilience.autoconfigure;

import dev.resilience.annotation.RateLimited;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.time.Durations;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.jspecify.annotations.Nullable;

/**
 * Resolves the {@link RateLimiterConfig} of a rate limiter from, in order of precedence,
 * its {@code resilience.rate-limiter.instances.<name>} properties, its
 * {@link RateLimited} annotation, the {@code resilience.rate-limiter.defaults} properties
 * and the core's built-in defaults. Thread-safe.
 */
final class RateLimiterConfigResolver {

    private static final String PREFIX = "resilience.rate-limiter";

    private final ResilienceProperties properties;

    RateLimiterConfigResolver(ResilienceProperties properties) {
        this.properties = properties;
    }

    /**
     * Resolves the configuration of a rate limiter.
     * @param name the rate limiter's name
     * @param annotation the annotation on the method, or {@code null} for properties
     * only; a zero or empty attribute leaves its setting unset
     * @return the configuration
     * @throws InvalidResiliencePolicyException if a setting is invalid
     */
    RateLimiterConfig resolve(String name, @Nullable RateLimited annotation) {
        ResilienceProperties.RateLimiter rateLimiter = this.properties.getRateLimiter();
        SettingSources<RateLimiterSettings> sources = new SettingSources<>(PREFIX, name,
                rateLimiter.getInstances().get(name), rateLimiter.getDefaults());
        RateLimiterConfig.Builder builder = RateLimiterConfig.builder();
        sources
            .pick("limit", RateLimiterSettings::getLimit,
                    (annotation != null && annotation.limit() != 0)
                            ? new Setting<>("@RateLimited(limit)", annotation.limit()) : null,
                    RateLimiterConfig.DEFAULT_LIMIT)
            .applyTo(name, builder::limit, "Use from 1 to " + RateLimiterConfig.MAX_LIMIT + " calls per period.");
        sources
            .pick("period", RateLimiterSettings::getPeriod, (annotation != null)
                    ? SettingSources.annotationDuration(name, "@RateLimited(period)", annotation.period()) : null,
                    RateLimiterConfig.DEFAULT_PERIOD)
            .applyTo(name, builder::period, "Use a period from " + Durations.format(RateLimiterConfig.MIN_PERIOD)
                    + " to " + Durations.format(RateLimiterConfig.MAX_PERIOD) + ", such as \"1s\".");
        sources
            .pick("timeout", RateLimiterSettings::getTimeout, (annotation != null)
                    ? SettingSources.annotationDuration(name, "@RateLimited(timeout)", annotation.timeout()) : null,
                    RateLimiterConfig.DEFAULT_TIMEOUT)
            .applyTo(name, builder::timeout, "Use 0 to refuse at once, or a wait of at most "
                    + Durations.format(RateLimiterConfig.MAX_TIMEOUT) + ", such as \"500ms\".");
        Setting<ResilienceProperties.Idempotency.Store> store = sources.pick("store", RateLimiterSettings::getStore,
                null, ResilienceProperties.Idempotency.Store.MEMORY);
        store.require(name, store.value() == ResilienceProperties.Idempotency.Store.MEMORY,
                "a rate limiter shared through Redis is not supported yet",
                "Use store: memory (each application instance limits on its own) or leave store unset.");
        return builder.build();
    }

}
