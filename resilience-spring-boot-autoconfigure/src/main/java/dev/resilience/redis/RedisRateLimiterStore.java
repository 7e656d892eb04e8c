package dev.resilience.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.ratelimiter.RateLimiterStore;
import dev.resilience.core.ratelimiter.SharedPermits;
import dev.resilience.core.time.Durations;
import dev.resilience.core.time.TimeSource;
import dev.resilience.logging.LineThrottle;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A {@link RateLimiterStore} in Redis: each rate limiter's permits are shared by every
 * instance of an application, so that together they admit at most {@code limit} calls per
 * {@code period}.
 *
 * <p>
 * <b>Layout.</b> A limiter is one string, {@code <keyPrefix>{<name>}} (its name is the
 * Redis Cluster hash tag, so each limiter lives on one node, and two names never share a
 * key): its theoretical arrival time, the instant it is back to a full burst, in
 * microseconds since the epoch on Redis's own clock ({@code TIME}), so that every
 * instance reads one clock and no clock skew between them counts. The key expires at that
 * instant: a limiter at its full burst keeps nothing in Redis.
 *
 * <p>
 * <b>Cost.</b> A permit is one Lua script, run atomically by Redis in one round trip
 * ({@code EVALSHA}, falling back to {@code EVAL} once after a restart or a
 * {@code SCRIPT FLUSH} emptied the script cache): it reads the time, decides as the
 * in-memory limiter does (a GCRA with a burst of {@code limit}, one permit back every
 * {@code period / limit}, the next permit reserved when it is free within the limiter's
 * timeout) and writes the new time with its expiry. Redis counts in microseconds, so the
 * interval is rounded up to a whole microsecond (never more calls than the limit), and a
 * limiter needs an interval of at least {@link #MIN_INTERVAL}. A reservation given up
 * (the caller interrupted or cancelled) is given back by the same script, only while it
 * is still the latest one, sent without waiting for its reply and as the script's text,
 * so that it lands even after the script cache was emptied; at most
 * {@value #MAX_GIVE_BACKS_IN_FLIGHT} are unanswered at once, and beyond them a
 * reservation stays spent, counted as a store error and warned of.
 *
 * <p>
 * <b>Failures.</b> A permit waits for Redis at most the store's timeout (default
 * {@value #DEFAULT_TIMEOUT_MILLIS} ms), or the client's command timeout when that is
 * shorter. When Redis fails or does not answer in time, the call is judged by the
 * instance's own in-memory limiter with the same settings ({@link OnStoreError#LOCAL}:
 * each instance then limits on its own, so together they may admit up to
 * {@code instances x limit}), or refused with the limiter's {@code RateLimitedException}
 * and a wait of one interval, at most a second ({@link OnStoreError#REJECT}). Each
 * failure is counted per limiter ({@link SharedPermits#storeErrors()}), and a WARN says
 * so at most once per {@link #WARN_INTERVAL} and limiter, with the failures held back
 * since. With {@link OnStoreError#LOCAL}, a permit that timed out may still be taken when
 * Redis answers again; with {@link OnStoreError#REJECT}, the script is told when its
 * caller stops waiting, on Redis's clock as estimated from the previous answer, and
 * reserves nothing later than that. A caller whose thread is interrupted sends nothing
 * and is no store error. Thread-safe.
 */
public final class RedisRateLimiterStore implements RateLimiterStore {

    /** The default of the longest a permit waits for Redis, in milliseconds. */
    public static final long DEFAULT_TIMEOUT_MILLIS = 500;

    /** The default of the longest a permit waits for Redis. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(DEFAULT_TIMEOUT_MILLIS);

    /** The shortest interval between two permits, {@code period / limit}: 1µs. */
    public static final Duration MIN_INTERVAL = Duration.ofNanos(1000);

    /** The shortest time between two WARN lines about the store errors of one limiter. */
    public static final Duration WARN_INTERVAL = Duration.ofSeconds(10);

    /** The most reservations given back and not yet answered. */
    public static final int MAX_GIVE_BACKS_IN_FLIGHT = 64;

    static final LuaScript<List<Object>> PERMIT = LuaScript.load("ratelimiter-permit.lua", List.class);

    private final BoundedRedis redis;

    private final String keyPrefix;

    private final OnStoreError onStoreError;

    private final LineThrottle warnings;

    private final Semaphore giveBacksInFlight = new Semaphore(MAX_GIVE_BACKS_IN_FLIGHT);

    private final Map<String, RedisPermits> permits = new ConcurrentHashMap<>();

    /**
     * Creates a store.
     * @param redis the template on the application's Redis connection
     * @param keyPrefix what precedes every key in Redis, such as
     * {@code orders:ratelimit:}
     * @param timeout the longest a permit waits for Redis; positive
     * @param onStoreError how a call is judged when Redis fails or does not answer in
     * time
     * @param time the clock of the throttled warnings
     * @param evictionCheck the check of Redis's eviction policy told of the commands'
     * outcomes, or {@code null}
     * @throws IllegalArgumentException if the timeout is not positive
     */
    public RedisRateLimiterStore(StringRedisTemplate redis, String keyPrefix, Duration timeout,
            OnStoreError onStoreError, TimeSource time, @Nullable RedisEvictionPolicyCheck evictionCheck) {
        this.redis = new BoundedRedis(Objects.requireNonNull(redis, "redis"), timeout, "resilience-ratelimiter-redis-",
                evictionCheck);
        this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
        this.onStoreError = Objects.requireNonNull(onStoreError, "onStoreError");
        this.warnings = new LineThrottle(WARN_INTERVAL, Objects.requireNonNull(time, "time"));
    }

    /**
     * {@inheritDoc}
     * @throws IllegalArgumentException if {@code period / limit} is shorter than
     * {@link #MIN_INTERVAL}
     */
    @Override
    public SharedPermits permits(String name, RateLimiterConfig config) {
        long periodNanos = Durations.toNanos(config.period());
        if (periodNanos / config.limit() < MIN_INTERVAL.toNanos()) {
            throw new IllegalArgumentException("a rate limiter in Redis counts in microseconds: period / limit must be "
                    + "at least 1us, so at most " + (periodNanos / MIN_INTERVAL.toNanos()) + " calls per "
                    + Durations.format(config.period()) + ", not " + config.limit());
        }
        RedisPermits made = new RedisPermits(this, name, config);
        this.permits.put(name, made);
        return made;
    }

    /**
     * Returns what precedes every key of this store in Redis.
     * @return the key prefix, such as {@code ratelimit:}
     */
    public String keyPrefix() {
        return this.keyPrefix;
    }

    /**
     * Returns the Redis key of a rate limiter.
     * @param name the rate limiter's name
     * @return {@code <keyPrefix>{<name>}}
     */
    public String key(String name) {
        return this.keyPrefix + "{" + name + "}";
    }

    /**
     * Returns how a call is judged when Redis fails or does not answer in time.
     * @return the choice
     */
    public OnStoreError onStoreError() {
        return this.onStoreError;
    }

    /**
     * Returns the names of the rate limiters whose permits this store keeps.
     * @return the names, sorted
     */
    public SortedSet<String> rateLimiters() {
        return new TreeSet<>(this.permits.keySet());
    }

    BoundedRedis redis() {
        return this.redis;
    }

    LineThrottle warnings() {
        return this.warnings;
    }

    Semaphore giveBacksInFlight() {
        return this.giveBacksInFlight;
    }

    /**
     * How a call is judged when Redis fails or does not answer in time.
     */
    public enum OnStoreError {

        /**
         * By the instance's own in-memory limiter with the same settings: each instance
         * limits on its own, so together they may admit up to {@code instances x limit}.
         */
        LOCAL,

        /**
         * Refused, as when no permit is free, with a wait of one interval
         * ({@code period / limit}), at most a second.
         */
        REJECT

    }

}
