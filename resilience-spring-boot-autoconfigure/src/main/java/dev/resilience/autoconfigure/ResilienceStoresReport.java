package dev.resilience.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterStore;
import dev.resilience.redis.RedisDeadLetterStore;
import dev.resilience.redis.RedisIdempotencyStore;
import dev.resilience.redis.RedisRateLimiterStore;
import dev.resilience.registry.ResilienceRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.util.ClassUtils;

/**
 * Logs at INFO, once when the context has been refreshed (every annotated method is
 * compiled by then), which idempotency and dead-letter stores are in use (in memory, in
 * Redis with the key prefix, or the class of a store of the application's) and that the
 * in-memory stores are per instance: their entries are not shared between instances and
 * are lost on restart; and, when some rate limiters share their permits, the store and
 * their names.
 */
final class ResilienceStoresReport implements ApplicationListener<ContextRefreshedEvent> {

    private static final Log logger = LogFactory.getLog(ResilienceStoresReport.class);

    private static final String SPRING_DATA_REDIS = "org.springframework.data.redis.core.StringRedisTemplate";

    private final ObjectProvider<IdempotencyStore> idempotencyStore;

    private final ObjectProvider<DeadLetterStore> deadLetterStore;

    private final ObjectProvider<ResilienceRegistry> registry;

    private final ObjectProvider<RateLimiterStore> rateLimiterStore;

    private final AtomicBoolean reported = new AtomicBoolean();

    ResilienceStoresReport(ObjectProvider<IdempotencyStore> idempotencyStore,
            ObjectProvider<DeadLetterStore> deadLetterStore, ObjectProvider<ResilienceRegistry> registry,
            ObjectProvider<RateLimiterStore> rateLimiterStore) {
        this.idempotencyStore = idempotencyStore;
        this.deadLetterStore = deadLetterStore;
        this.registry = registry;
        this.rateLimiterStore = rateLimiterStore;
    }

    @Override
    public void onApplicationEvent(ContextRefreshedEvent event) {
        if (logger.isInfoEnabled() && this.reported.compareAndSet(false, true)) {
            ResilienceRegistry instances = this.registry.getIfUnique();
            List<String> shared = (instances != null) ? instances.rateLimiters()
                .values()
                .stream()
                .filter((rateLimiter) -> rateLimiter.sharedPermits() != null)
                .map(RateLimiter::name)
                .toList() : List.of();
            logger.info(message(this.idempotencyStore.getIfUnique(), this.deadLetterStore.getIfUnique())
                    + sharedRateLimiters(this.rateLimiterStore.getIfUnique(), shared));
        }
    }

    /**
     * Words the rate limiters that share their permits, if any.
     * @param store the store they share them through
     * @param names their names
     * @return a sentence that follows {@link #message}, or nothing
     */
    static String sharedRateLimiters(@Nullable RateLimiterStore store, List<String> names) {
        if (names.isEmpty()) {
            return "";
        }
        return " Rate limiters " + describe(store) + ": " + String.join(", ", names) + ".";
    }

    /**
     * Words the report.
     * @param idempotencyStore the idempotency store, if there is one
     * @param deadLetterStore the dead-letter store, if there is one
     * @return one line
     */
    static String message(@Nullable IdempotencyStore idempotencyStore, @Nullable DeadLetterStore deadLetterStore) {
        List<String> perInstance = new ArrayList<>();
        List<String> properties = new ArrayList<>();
        if (idempotencyStore instanceof InMemoryIdempotencyStore) {
            perInstance.add("idempotency");
            properties.add("resilience.idempotency.store=redis");
        }
        if (deadLetterStore instanceof InMemoryDeadLetterStore) {
            perInstance.add("dead-letter");
            properties.add("resilience.dead-letter.store=redis");
        }
        String stores = "Resilience stores: idempotency " + describe(idempotencyStore) + ", dead letters "
                + describe(deadLetterStore) + ".";
        if (perInstance.isEmpty()) {
            return stores;
        }
        boolean one = perInstance.size() == 1;
        return stores + " The in-memory " + String.join(" and ", perInstance) + (one ? " store is" : " stores are")
                + " per instance: " + (one ? "its" : "their") + " entries are not shared between instances and are "
                + "lost on restart (" + String.join(" and ", properties) + " share" + (one ? "s" : "") + " them).";
    }

    private static String describe(@Nullable Object store) {
        if (store == null) {
            return "none";
        }
        if (store instanceof InMemoryIdempotencyStore || store instanceof InMemoryDeadLetterStore) {
            return "in memory (" + store.getClass().getSimpleName() + ")";
        }
        String redis = ClassUtils.isPresent(SPRING_DATA_REDIS, store.getClass().getClassLoader())
                ? RedisStores.describe(store) : null;
        return (redis != null) ? redis : "in " + store.getClass().getName();
    }

    /** Describes the Redis stores; loaded only where Spring Data Redis is present. */
    private static final class RedisStores {

        static @Nullable String describe(Object store) {
            if (store instanceof RedisIdempotencyStore redis) {
                return "in Redis (RedisIdempotencyStore, key prefix '" + redis.keyPrefix() + "')";
            }
            if (store instanceof RedisDeadLetterStore redis) {
                return "in Redis (RedisDeadLetterStore, key prefix '" + redis.keyPrefix() + "')";
            }
            if (store instanceof RedisRateLimiterStore redis) {
                return "in Redis (RedisRateLimiterStore, key prefix '" + redis.keyPrefix() + "', on store error "
                        + redis.onStoreError().name().toLowerCase(Locale.ROOT) + ")";
            }
            return null;
        }

    }

}
