package dev.resilience.autoconfigure;

import java.util.Locale;
import java.util.function.Supplier;

import dev.resilience.annotation.RateLimited;
import dev.resilience.autoconfigure.ResilienceProperties.Idempotency.Store;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.ratelimiter.RateLimiterStore;
import dev.resilience.core.ratelimiter.SharedPermits;
import dev.resilience.core.time.Durations;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * Resolves the {@link RateLimiterConfig} of a rate limiter, and where it keeps its
 * permits, from, in order of precedence, its
 * {@code resilience.rate-limiter.instances.<name>} properties, its {@link RateLimited}
 * annotation, the {@code resilience.rate-limiter.defaults} properties and the core's
 * built-in defaults ({@code memory} for the store). Thread-safe.
 */
final class RateLimiterConfigResolver {

    private static final String PREFIX = "resilience.rate-limiter";

    private static final String SPRING_DATA_REDIS = "org.springframework.data.redis.connection.RedisConnectionFactory";

    private final ResilienceProperties properties;

    private final Supplier<@Nullable RateLimiterStore> store;

    /**
     * Creates the resolver.
     * @param properties the properties
     * @param store supplies the store of the rate limiters whose store is redis, or
     * {@code null} when the application has none
     */
    RateLimiterConfigResolver(ResilienceProperties properties, Supplier<@Nullable RateLimiterStore> store) {
        this.properties = properties;
        this.store = store;
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
        return builder.build();
    }

    /**
     * Resolves where a rate limiter keeps its permits, by the same precedence as its
     * settings, and makes its shared permits when that is Redis.
     * @param name the rate limiter's name
     * @param annotation the annotation on the method, or {@code null} for properties
     * only; an empty store leaves it unset
     * @param config the rate limiter's resolved configuration
     * @return the shared permits, or {@code null} for a rate limiter in memory
     * @throws InvalidResiliencePolicyException if the store is not one, the application
     * has no store for Redis, or the store cannot keep the limiter's settings
     */
    @Nullable SharedPermits sharedPermits(String name, @Nullable RateLimited annotation, RateLimiterConfig config) {
        ResilienceProperties.RateLimiter rateLimiter = this.properties.getRateLimiter();
        SettingSources<RateLimiterSettings> sources = new SettingSources<>(PREFIX, name,
                rateLimiter.getInstances().get(name), rateLimiter.getDefaults());
        Setting<Store> store = sources.pick("store", RateLimiterSettings::getStore,
                (annotation != null) ? annotationStore(name, annotation.store()) : null, Store.MEMORY);
        if (store.value() != Store.REDIS) {
            return null;
        }
        Setting<String> redisStore = new Setting<>(store.source(), "redis");
        RateLimiterStore redis = this.store.get();
        if (redis == null) {
            boolean springDataRedis = ClassUtils.isPresent(SPRING_DATA_REDIS, null);
            throw redisStore.invalid(name,
                    springDataRedis ? "the application has no RedisConnectionFactory to share the limit through"
                            : "Spring Data Redis is not on the classpath",
                    (springDataRedis
                            ? "Point Spring Boot at a Redis (spring.data.redis.host and spring.data.redis.port) or "
                                    + "define a RedisConnectionFactory bean"
                            : "Add spring-boot-starter-data-redis to the application's dependencies")
                            + ", or use store: memory (each application instance then limits on its own).",
                    null);
        }
        try {
            return redis.permits(name, config);
        }
        catch (IllegalArgumentException ex) {
            throw redisStore.invalid(name, ex.getMessage(),
                    "Use a longer period or a lower limit, or store: memory, which counts in nanoseconds.", ex);
        }
    }

    private static @Nullable Setting<Store> annotationStore(String subject, String text) {
        if (text.isBlank()) {
            return null;
        }
        try {
            return new Setting<>("@RateLimited(store)", Store.valueOf(text.strip().toUpperCase(Locale.ROOT)));
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidResiliencePolicyException(subject, "@RateLimited(store)", text,
                    "'" + text + "' is not a rate limiter store", "Use \"memory\" or \"redis\", or leave it empty.",
                    ex);
        }
    }

}
