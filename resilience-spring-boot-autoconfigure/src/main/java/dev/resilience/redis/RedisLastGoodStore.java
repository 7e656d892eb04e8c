package dev.resilience.redis;

import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

import dev.resilience.core.lastgood.LastGoodStore;
import dev.resilience.core.lastgood.LastGoodValue;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A {@link LastGoodStore} in Redis, shared by every instance of an application.
 *
 * <p>
 * <b>Layout.</b> Each value is one string, {@code <keyPrefix><key>}, expiring with its
 * time to live: the instant it was stored (its epoch second in 19 digits and its
 * nanosecond in 9, so that two times compare as text), the name of its class and its
 * JSON, one line each. A write never replaces a value stored at a later instant, so
 * writes that reach Redis out of order (from a pool of blocking connections) never bring
 * back an older value. Values are written and read by the idempotency results'
 * {@link JsonResultCodec}, so decoding is bounded the same way: the store's own mapper,
 * into the method's declared type or an allowed subtype of it
 * ({@code resilience.idempotency.allowed-types}), at most
 * {@code resilience.idempotency.max-result-size} bytes (a larger value is not stored).
 *
 * <p>
 * A value is kept without the call waiting for Redis: {@link #put} encodes it on the
 * caller's thread and sends it, and at most {@value #MAX_WRITES_IN_FLIGHT} writes wait
 * for their reply at once, counting those that outlived the store timeout and are still
 * queued in the client; beyond that a value is not kept (the one before it stays) and is
 * counted in {@link #skippedWrites()}, so a slow or unreachable Redis never slows a call
 * that succeeded, nor grows the client's queue. A write that fails or gets no reply
 * within the store timeout is logged and counted in {@link #failedWrites()}. A read waits
 * for Redis at most the store timeout, and what fails then (Redis down, a stored value
 * that cannot be read) throws, which the pipeline logs: the call goes on as if no value
 * were kept. Thread-safe.
 */
public final class RedisLastGoodStore implements LastGoodStore {

    private static final RedisScript<Long> PUT = LuaScript.load("lastgood-put.lua", Long.class);

    private static final RedisScript<String> GET = RedisScript.of("return redis.call('GET', KEYS[1])", String.class);

    /** The most writes sent and not yet answered. */
    public static final int MAX_WRITES_IN_FLIGHT = 64;

    private static final Log logger = LogFactory.getLog(RedisLastGoodStore.class);

    private static final int SORTABLE_LENGTH = 28;

    /** One failed write in this many is logged. */
    private static final int LOGGED_FAILURE_EVERY = 100;

    private final BoundedRedis redis;

    private final Semaphore writesInFlight = new Semaphore(MAX_WRITES_IN_FLIGHT);

    private final AtomicLong failedWrites = new AtomicLong();

    private final AtomicLong skippedWrites = new AtomicLong();

    private final JsonResultCodec codec;

    private final String keyPrefix;

    /**
     * Creates a store.
     * @param redis the template on the application's Redis connection
     * @param codec writes and reads the values within its bounds
     * @param keyPrefix what precedes every key in Redis, such as {@code orders:lastgood:}
     * @param timeout the longest a read or write waits for Redis; positive
     * @param evictionCheck the check of Redis's eviction policy told of the commands'
     * outcomes, or {@code null}
     */
    public RedisLastGoodStore(StringRedisTemplate redis, JsonResultCodec codec, String keyPrefix, Duration timeout,
            @Nullable RedisEvictionPolicyCheck evictionCheck) {
        this.redis = new BoundedRedis(Objects.requireNonNull(redis, "redis"), timeout, "resilience-lastgood-redis-",
                evictionCheck);
        this.codec = Objects.requireNonNull(codec, "codec");
        this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
    }

    /**
     * Returns what precedes every key of this store in Redis.
     * @return the key prefix
     */
    public String keyPrefix() {
        return this.keyPrefix;
    }

    @Override
    public void put(String key, Object value, Type type, Instant storedAt, Duration ttl) {
        String json = this.codec.write(value, type);
        String stored = sortable(storedAt) + "\n" + value.getClass().getName() + "\n" + json;
        CompletableFuture<?> reply = this.redis.send(PUT, List.of(this.keyPrefix + key), this.writesInFlight, stored,
                Long.toString(Math.max(1, ttl.toMillis())));
        if (reply == null) {
            this.skippedWrites.incrementAndGet();
            return;
        }
        reply.whenComplete((written, failure) -> {
            if (failure != null && this.failedWrites.getAndIncrement() % LOGGED_FAILURE_EVERY == 0) {
                logger.warn("Last good value under '" + key + "' was not kept: Redis failed or did not answer ("
                        + this.failedWrites.get() + " writes lost so far)", failure);
            }
        });
    }

    /**
     * Returns how many values were not kept because Redis failed or did not answer in
     * time.
     * @return the number of failed writes since this store was created
     */
    public long failedWrites() {
        return this.failedWrites.get();
    }

    /**
     * Returns how many values were not sent because {@value #MAX_WRITES_IN_FLIGHT} writes
     * were waiting for Redis already.
     * @return the number of writes skipped since this store was created
     */
    public long skippedWrites() {
        return this.skippedWrites.get();
    }

    @Override
    public Optional<LastGoodValue> get(String key, Type type) {
        String stored = this.redis.script(GET, List.of(this.keyPrefix + key));
        if (stored == null) {
            return Optional.empty();
        }
        int endOfTime = stored.indexOf('\n');
        int endOfType = (endOfTime >= 0) ? stored.indexOf('\n', endOfTime + 1) : -1;
        if (endOfType < 0) {
            throw new IllegalStateException("Last good value under '" + key + "' is not in the store's layout");
        }
        Instant storedAt = instant(key, stored.substring(0, endOfTime));
        String typeName = stored.substring(endOfTime + 1, endOfType);
        Object value = this.codec.read(key, stored.substring(endOfType + 1), typeName).decode(type);
        return (value != null) ? Optional.of(new LastGoodValue(value, storedAt)) : Optional.empty();
    }

    private static String sortable(Instant instant) {
        return String.format(Locale.ROOT, "%019d%09d", instant.getEpochSecond(), instant.getNano());
    }

    /**
     * Reads the time a value was stored: sortable digits, or the ISO instant that values
     * stored before the sortable layout begin with.
     */
    private static Instant instant(String key, String stored) {
        try {
            if (stored.length() == SORTABLE_LENGTH && stored.chars().allMatch((c) -> c >= '0' && c <= '9')) {
                return Instant.ofEpochSecond(Long.parseLong(stored.substring(0, 19)),
                        Long.parseLong(stored.substring(19)));
            }
            return Instant.parse(stored);
        }
        catch (RuntimeException ex) {
            throw new IllegalStateException("Last good value under '" + key + "' is not in the store's layout", ex);
        }
    }

}
