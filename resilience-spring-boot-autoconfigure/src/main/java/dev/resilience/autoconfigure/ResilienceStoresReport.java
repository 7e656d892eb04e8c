package dev.resilience.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.redis.RedisDeadLetterStore;
import dev.resilience.redis.RedisIdempotencyStore;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.util.ClassUtils;

/**
 * Logs at INFO, once when the context has created its singletons, which idempotency and
 * dead-letter stores are in use (in memory, in Redis with the key prefix, or the class of
 * a store of the application's) and that the in-memory stores are per instance: their
 * entries are not shared between instances and are lost on restart.
 */
final class ResilienceStoresReport implements SmartInitializingSingleton {

    private static final Log logger = LogFactory.getLog(ResilienceStoresReport.class);

    private static final String SPRING_DATA_REDIS = "org.springframework.data.redis.core.StringRedisTemplate";

    private final ObjectProvider<IdempotencyStore> idempotencyStore;

    private final ObjectProvider<DeadLetterStore> deadLetterStore;

    ResilienceStoresReport(ObjectProvider<IdempotencyStore> idempotencyStore,
            ObjectProvider<DeadLetterStore> deadLetterStore) {
        this.idempotencyStore = idempotencyStore;
        this.deadLetterStore = deadLetterStore;
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (logger.isInfoEnabled()) {
            logger.info(message(this.idempotencyStore.getIfUnique(), this.deadLetterStore.getIfUnique()));
        }
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
            return null;
        }

    }

}
