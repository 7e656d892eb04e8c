package dev.resilience.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterClaim;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.time.TimeSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A {@link DeadLetterStore} in Redis, bounded in number and time, and read alike by every
 * instance of an application.
 *
 * <p>
 * <b>Layout.</b> Four keys share the hash tag {@code {<name>}}, so that they live on one
 * Redis Cluster slot and one script may touch them all: {@code {<name>}:order}, a sorted
 * set of ids scored by write order; {@code {<name>}:entries}, a hash of id to the dead
 * letter as JSON; {@code {<name>}:sequence}, the counter that gives the write order; and
 * {@code {<name>}:expiry}, a sorted set of ids scored by the epoch millisecond, on the
 * store's clock, at which they expire. With the default name they are
 * {@code {resilience:deadletters}:order} and so on. Every write also sets the keys to
 * expire one TTL later, so a store no longer written to empties itself. A {@link #claim}
 * is one more key, {@code {<name>}:claim:<id>}, holding the claim's token and expiring
 * with its lease; the letter stays where it is while claimed.
 *
 * <p>
 * <b>Cost.</b> {@link #write} is one script: it drops up to {@value #EXPIRED_PER_CALL}
 * expired dead letters from all three sets, numbers the write, adds the id, its expiry
 * and the JSON, and evicts the oldest dead letters beyond the capacity with their JSON,
 * atomically, so every instance sees the same bound. {@link #list} is one script that
 * drops expired ones the same way, then returns the newest not expired, O(log n + limit);
 * {@link #find}, {@link #delete} and {@link #size} are one script each, O(log n), and
 * never return an expired dead letter or count it.
 *
 * <p>
 * <b>Failures.</b> Every command waits for Redis at most the store's timeout (default
 * {@value #DEFAULT_TIMEOUT_MILLIS} ms), or the client's command timeout when that is
 * shorter, so a Redis that does not answer delays the call that writes a dead letter by
 * that much at most. {@link #write} never throws: when Redis fails or does not answer in
 * time, the dead letter is logged as lost and counted in {@link #failedWrites()}, and the
 * call's outcome stands (a write that timed out may still land when Redis answers again).
 * The reads throw Spring's {@link org.springframework.dao.DataAccessException} when Redis
 * fails, a {@link org.springframework.dao.QueryTimeoutException} when it does not answer
 * in time; a stored entry that no longer reads as a dead letter is skipped with a
 * warning. Thread-safe.
 */
public final class RedisDeadLetterStore implements DeadLetterStore {

    /** The default name of the store's keys. */
    public static final String DEFAULT_NAME = "resilience:deadletters";

    /** The default of the longest a command waits for Redis, in milliseconds. */
    public static final long DEFAULT_TIMEOUT_MILLIS = 2000;

    /** The default of the longest a command waits for Redis. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(DEFAULT_TIMEOUT_MILLIS);

    private static final Log logger = LogFactory.getLog(RedisDeadLetterStore.class);

    private static final RedisScript<Long> WRITE = LuaScript.load("deadletter-write.lua", Long.class);

    private static final RedisScript<List<Object>> LIST = LuaScript.load("deadletter-list.lua", List.class);

    private static final RedisScript<Long> DELETE = LuaScript.load("deadletter-delete.lua", Long.class);

    private static final RedisScript<String> FIND = LuaScript.load("deadletter-find.lua", String.class);

    private static final RedisScript<Long> SIZE = LuaScript.load("deadletter-size.lua", Long.class);

    private static final RedisScript<String> CLAIM = LuaScript.load("deadletter-claim.lua", String.class);

    /**
     * The most expired dead letters a write or a list drops, so that its work stays
     * bounded.
     */
    static final int EXPIRED_PER_CALL = 100;

    private final BoundedRedis redis;

    private final JsonMapper mapper;

    private final String capacity;

    private final String orderKey;

    private final String entriesKey;

    private final String sequenceKey;

    private final String expiryKey;

    private final String ttlMillis;

    private final TimeSource time;

    private final AtomicLong failedWrites = new AtomicLong();

    private final Semaphore abandonedClaims = new Semaphore(RedisDeadLetterClaim.MAX_ABANDONED);

    /**
     * Creates a store whose commands wait for Redis at most
     * {@value #DEFAULT_TIMEOUT_MILLIS} ms.
     * @param redis the template on the application's Redis connection
     * @param mapper the JSON mapper of dead letters
     * @param name the name in the store's keys, such as {@value #DEFAULT_NAME}
     * @param capacity the most dead letters kept; at least 1
     * @throws IllegalArgumentException if {@code capacity} is below 1
     */
    public RedisDeadLetterStore(StringRedisTemplate redis, JsonMapper mapper, String name, int capacity) {
        this(redis, mapper, name, capacity, DEFAULT_TIMEOUT);
    }

    /**
     * Creates a store whose dead letters are kept for 7 days on the system clock.
     * @param redis the template on the application's Redis connection
     * @param mapper the JSON mapper of dead letters
     * @param name the name in the store's keys, such as {@value #DEFAULT_NAME}
     * @param capacity the most dead letters kept; at least 1
     * @param timeout the longest a command waits for Redis
     * @throws IllegalArgumentException if {@code capacity} is below 1 or {@code timeout}
     * is not positive
     */
    public RedisDeadLetterStore(StringRedisTemplate redis, JsonMapper mapper, String name, int capacity,
            Duration timeout) {
        this(redis, mapper, name, capacity, timeout, InMemoryDeadLetterStore.DEFAULT_TTL, TimeSource.system());
    }

    /**
     * Creates a store.
     * @param redis the template on the application's Redis connection
     * @param mapper the JSON mapper of dead letters
     * @param name the name in the store's keys, such as {@value #DEFAULT_NAME}
     * @param capacity the most dead letters kept; at least 1
     * @param timeout the longest a command waits for Redis
     * @param ttl how long a dead letter is kept after it was written; at least 1 ms
     * @param time the clock of the expiry; instances sharing the store should agree on it
     * @throws IllegalArgumentException if {@code capacity} is below 1, or {@code timeout}
     * or {@code ttl} is not positive
     */
    public RedisDeadLetterStore(StringRedisTemplate redis, JsonMapper mapper, String name, int capacity,
            Duration timeout, Duration ttl, TimeSource time) {
        this(redis, mapper, name, capacity, timeout, ttl, time, null);
    }

    /**
     * Creates a store that has its Redis's eviction policy checked again after a
     * reconnection.
     * @param redis the template on the application's Redis connection
     * @param mapper the JSON mapper of dead letters
     * @param name the name in the store's keys, such as {@value #DEFAULT_NAME}
     * @param capacity the most dead letters kept; at least 1
     * @param timeout the longest a command waits for Redis
     * @param ttl how long a dead letter is kept after it was written; at least 1 ms
     * @param time the clock of the expiry; instances sharing the store should agree on it
     * @param evictionCheck told of each command's success or failure, to check the
     * eviction policy again once Redis answers after a failure; {@code null} for none
     * @throws IllegalArgumentException if {@code capacity} is below 1, {@code timeout} or
     * {@code ttl} is not positive, or {@code name} is empty or starts with <code>}</code>
     * (either empties the keys' hash tag, which spreads them over several Redis Cluster
     * slots)
     */
    public RedisDeadLetterStore(StringRedisTemplate redis, JsonMapper mapper, String name, int capacity,
            Duration timeout, Duration ttl, TimeSource time, @Nullable RedisEvictionPolicyCheck evictionCheck) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        if (ttl.toMillis() < 1) {
            throw new IllegalArgumentException("ttl must be at least 1 ms, was " + ttl);
        }
        this.ttlMillis = Long.toString(ttl.toMillis());
        this.time = Objects.requireNonNull(time, "time");
        this.redis = new BoundedRedis(Objects.requireNonNull(redis, "redis"), timeout, "resilience-deadletters-redis-",
                evictionCheck);
        this.mapper = Objects.requireNonNull(mapper, "mapper");
        String tag = "{" + checkName(name) + "}";
        this.orderKey = tag + ":order";
        this.entriesKey = tag + ":entries";
        this.sequenceKey = tag + ":sequence";
        this.expiryKey = tag + ":expiry";
        this.capacity = Integer.toString(capacity);
    }

    /**
     * Checks that a name gives the keys a hash tag that is not empty: Redis Cluster takes
     * the text between the first <code>{</code> and the first <code>}</code> after it as
     * the tag, and hashes the whole key when that text is empty, so that a name that is
     * empty or starts with <code>}</code> would put the four keys of one script on four
     * slots.
     */
    private static String checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty() || name.charAt(0) == '}') {
            throw new IllegalArgumentException("The dead-letter store's name '" + name + "' is empty or starts with '}'"
                    + ", which leaves its keys' hash tag {" + name + "} empty and spreads them over several Redis"
                    + " Cluster slots: set resilience.dead-letter.key-prefix (or spring.application.name) to a name"
                    + " that does not");
        }
        return name;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Never throws: a dead letter that cannot be written is logged and counted.
     */
    @Override
    public void write(DeadLetter deadLetter) {
        try {
            String json = this.mapper.writeValueAsString(deadLetter);
            this.redis.script(WRITE, List.of(this.orderKey, this.entriesKey, this.sequenceKey, this.expiryKey),
                    deadLetter.id(), json, this.capacity, now(), this.ttlMillis, Integer.toString(EXPIRED_PER_CALL));
        }
        catch (RuntimeException ex) {
            this.failedWrites.incrementAndGet();
            String reason = (ex instanceof QueryTimeoutException)
                    ? "Redis did not answer within " + this.redis.timeout().toMillis() + " ms"
                    : "Redis failed to store it";
            logger.error("Dead letter " + deadLetter.id() + " of '" + deadLetter.name() + "' ("
                    + deadLetter.errorClass() + " after " + deadLetter.attempts() + " attempts) was lost: " + reason,
                    ex);
        }
    }

    @Override
    public List<DeadLetter> list(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, was " + limit);
        }
        if (limit == 0) {
            return List.of();
        }
        List<Object> bodies = this.redis.script(LIST, List.of(this.orderKey, this.entriesKey, this.expiryKey),
                Integer.toString(limit), now(), Integer.toString(EXPIRED_PER_CALL));
        if (bodies == null) {
            return List.of();
        }
        List<DeadLetter> deadLetters = new ArrayList<>(bodies.size());
        for (Object body : bodies) {
            DeadLetter deadLetter = read((String) body);
            if (deadLetter != null) {
                deadLetters.add(deadLetter);
            }
        }
        return List.copyOf(deadLetters);
    }

    @Override
    public Optional<DeadLetter> find(String id) {
        String body = this.redis.script(FIND, List.of(this.entriesKey, this.expiryKey), id, now());
        return Optional.ofNullable((body != null) ? read(body) : null);
    }

    @Override
    public boolean delete(String id) {
        return Long.valueOf(1)
            .equals(this.redis.script(DELETE, List.of(this.orderKey, this.entriesKey, this.expiryKey), id, now()));
    }

    /**
     * {@inheritDoc}
     * <p>
     * One script checks that the letter is there and sets its claim key if no claim holds
     * it; {@link DeadLetterClaim#complete} deletes the letter and the claim in one
     * script, {@link DeadLetterClaim#release} deletes the claim alone, each only while
     * the claim is still this one. When Redis fails to end a claim, the letter stays and
     * the claim runs out with its lease.
     */
    @Override
    public Optional<DeadLetterClaim> claim(String id, Duration lease) {
        if (lease.toMillis() < 1) {
            throw new IllegalArgumentException("lease must be at least 1 ms, was " + lease);
        }
        String token = UUID.randomUUID().toString();
        String claimKey = keyPrefix() + "claim:" + id;
        String body = this.redis.scriptOrElse(CLAIM, List.of(this.entriesKey, this.expiryKey, claimKey),
                () -> RedisDeadLetterClaim.abandon(this.redis, claimKey, token, this.abandonedClaims), id, now(), token,
                Long.toString(lease.toMillis()));
        DeadLetter deadLetter = (body != null) ? read(body) : null;
        if (deadLetter == null) {
            if (body != null) {
                RedisDeadLetterClaim.abandon(this.redis, claimKey, token, this.abandonedClaims);
            }
            return Optional.empty();
        }
        return Optional.of(new RedisDeadLetterClaim(deadLetter, this.redis,
                List.of(this.orderKey, this.entriesKey, this.expiryKey, claimKey), token, this::now,
                this.abandonedClaims));
    }

    @Override
    public int size() {
        Long size = this.redis.script(SIZE, List.of(this.orderKey, this.expiryKey), now());
        return (size != null) ? size.intValue() : 0;
    }

    /**
     * Returns how many dead letters were lost because Redis failed to store them.
     * @return the number of failed writes since this store was created
     */
    public long failedWrites() {
        return this.failedWrites.get();
    }

    /**
     * Returns what precedes every key of this store in Redis.
     * @return the key prefix, such as <code>{resilience:deadletters}:</code>
     */
    public String keyPrefix() {
        return this.orderKey.substring(0, this.orderKey.lastIndexOf(':') + 1);
    }

    private String now() {
        return Long.toString(this.time.now().toEpochMilli());
    }

    private @Nullable DeadLetter read(String json) {
        try {
            return this.mapper.readValue(json, DeadLetter.class);
        }
        catch (JacksonException ex) {
            logger.warn("Skipped a stored dead letter that does not read as one: " + ex.getOriginalMessage());
            return null;
        }
    }

}
