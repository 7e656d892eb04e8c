package dev.resilience.redis;

import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.IdempotencyResultNotStorableException;
import dev.resilience.core.idempotency.IdempotencyResultUnavailableException;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.IdempotencyStoreException;
import dev.resilience.core.idempotency.NotReplayableResult;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * An {@link IdempotencyStore} in Redis, shared by every instance of an application.
 *
 * <p>
 * <b>Layout.</b> Each key is one hash, {@code <keyPrefix><key>}, with the fields
 * {@code state} ({@code IN_PROGRESS} or {@code COMPLETED}), {@code owner} (the claim's
 * token: a random UUID drawn once per store, then a sequence number), {@code fingerprint}
 * and, once completed, {@code value} (the result as JSON) and {@code type} (the result's
 * class, empty for {@code null}; {@value #NOT_REPLAYABLE_TYPE} for a result that could
 * not be stored, whose {@code value} is then the reason). Inside the JSON, a value whose
 * declared type is an interface or abstract class of the application that the
 * application's mapper cannot read as declared (the elements of a {@code List<Parcel>} of
 * a sealed {@code Parcel}, a record component declared as one) keeps its class as an
 * {@code "@class"} property, or as a {@code ["class", value]} pair when it is written as
 * a string, as an enum is ({@link ResultTyping}); a plain record, and an interface the
 * mapper reads through a module, a mix-in, an abstract type mapping or a creator, keep
 * none and are stored as the application's mapper writes them. The Redis key expires with
 * the lease while the entry is IN_PROGRESS and after the time to live once it is
 * COMPLETED, so an expired entry is gone and blocks nothing: the next claim takes the key
 * over with a new owner token, and the stale owner's {@link #complete} and
 * {@link #release} are refused. Unlike the in-memory store, an owner whose lease expired
 * cannot complete even when no other call took the key over: its entry no longer exists.
 *
 * <p>
 * <b>Cost.</b> {@link #claim}, {@link #complete} and {@link #release} are each one Lua
 * script, run atomically by Redis in one round trip ({@code EVALSHA}, falling back to
 * {@code EVAL} once after a Redis restart). Every field and the expiry are written by the
 * same script, so no call leaves a half-written entry. The scripts are read and hashed
 * once, and owner tokens come from a counter, so concurrent calls share no lock in this
 * class.
 *
 * <p>
 * <b>Failures.</b> Every Redis failure (refused connection, no answer within the store's
 * timeout, script error, a reply of unexpected shape) is thrown as
 * {@link IdempotencyStoreException} naming the operation. A call waits for Redis at most
 * the store's timeout (default {@value #DEFAULT_TIMEOUT_MILLIS} ms), or the client's
 * command timeout when that is shorter: with Lettuce the command is sent on the caller's
 * thread and its reply awaited for at most that long; with a driver without a reactive
 * API (Jedis) the command runs on a pool of this store's threads while the caller waits.
 * A claim or completion that timed out may still be carried out when Redis answers again.
 * Redis without persistence forgets every entry when it restarts: completed results are
 * then no longer replayed and a repeated request runs again.
 *
 * <p>
 * Results are written and read by a {@link JsonResultCodec}, with the store's own mapper
 * and within its bounds: a result larger than its size bound is refused, and a stored
 * class is read only where it is the declared type or a subtype of it in the declared
 * type's package or in {@code resilience.idempotency.allowed-types}, so stored data never
 * chooses another class; a method declaring {@code Object} or a type variable cannot use
 * this store ({@link #requiresDeclaredResultType()}). A {@code ResponseEntity} is kept
 * without its {@code Set-Cookie} and authentication headers
 * ({@link ResponseEntityJacksonModule}). Results are decoded when replayed into the type
 * the replaying call declares, possibly generic, or into the stored class where the
 * declared type is an interface, a sealed or abstract type and the stored class is an
 * allowed subtype of it, keeping the declared type's generics (a {@code Page<Receipt>}
 * stored as a {@code PageImpl} is read as a {@code PageImpl<Receipt>}); JDK collections
 * and maps are read as declared, or as their interface under {@code Object}. Inside the
 * value, each kept class is read where it is a subtype of the type declared at its
 * position, and refused otherwise, so a {@code List<Parcel>}, an {@code Optional<Parcel>}
 * or a {@code ResponseEntity<Parcel>} replays the records the first call returned. JSON
 * that lacks a class where one is expected (a result stored by a version of this store
 * that kept none) is read as the application's mapper reads it, without any default
 * typing of the application's. A result that cannot be decoded throws
 * {@link IdempotencyResultUnavailableException}. A result that cannot be written as JSON
 * is refused by {@link #complete} with {@link IdempotencyResultNotStorableException}.
 * {@code ResponseEntity} results are supported through
 * {@link ResponseEntityJacksonModule}, registered here whenever Spring Web is present.
 * Requires Redis 5 or later. Thread-safe.
 */
public final class RedisIdempotencyStore implements IdempotencyStore {

    /** The default of the longest a call waits for Redis, in milliseconds. */
    public static final long DEFAULT_TIMEOUT_MILLIS = 2000;

    /** The default of the longest a call waits for Redis. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(DEFAULT_TIMEOUT_MILLIS);

    private static final long MAX_MILLIS = Duration.ofDays(365L * 1000).toMillis();

    /**
     * The {@code type} of an entry completed with a {@link NotReplayableResult}; no Java
     * class has this name.
     */
    public static final String NOT_REPLAYABLE_TYPE = "!not-replayable";

    private static final RedisScript<List<Object>> CLAIM = LuaScript.load("idempotency-claim.lua", List.class);

    private static final RedisScript<Long> COMPLETE = LuaScript.load("idempotency-complete.lua", Long.class);

    private static final RedisScript<Long> RELEASE = LuaScript.load("idempotency-release.lua", Long.class);

    private final BoundedRedis redis;

    private final JsonResultCodec codec;

    private final String keyPrefix;

    private final String tokenPrefix = UUID.randomUUID() + "-";

    private final AtomicLong claims = new AtomicLong();

    /**
     * Creates a store whose calls wait for Redis at most {@value #DEFAULT_TIMEOUT_MILLIS}
     * ms.
     * @param redis the template on the application's Redis connection
     * @param mapper the JSON mapper of results; the store uses a {@link JsonResultCodec}
     * of it with the default bounds
     * @param keyPrefix what precedes every key in Redis, such as {@code idem:}
     */
    public RedisIdempotencyStore(StringRedisTemplate redis, JsonMapper mapper, String keyPrefix) {
        this(redis, mapper, keyPrefix, DEFAULT_TIMEOUT);
    }

    /**
     * Creates a store.
     * @param redis the template on the application's Redis connection
     * @param mapper the JSON mapper of results; the store uses a {@link JsonResultCodec}
     * of it with the default bounds
     * @param keyPrefix what precedes every key in Redis, such as {@code idem:}
     * @param timeout the longest a call waits for Redis before it fails as a store error
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    public RedisIdempotencyStore(StringRedisTemplate redis, JsonMapper mapper, String keyPrefix, Duration timeout) {
        this(redis, new JsonResultCodec(Objects.requireNonNull(mapper, "mapper")), keyPrefix, timeout, null);
    }

    /**
     * Creates a store whose results are written and read by a codec, within its allowed
     * types and size bound.
     * @param redis the template on the application's Redis connection
     * @param codec the JSON form of results, shared with the in-memory store
     * @param keyPrefix what precedes every key in Redis, such as {@code orders:idem:}
     * @param timeout the longest a call waits for Redis before it fails as a store error
     * @param evictionCheck told of the store's failures and successes, to check Redis's
     * eviction policy again after a reconnection; {@code null} for none
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    public RedisIdempotencyStore(StringRedisTemplate redis, JsonResultCodec codec, String keyPrefix, Duration timeout,
            @Nullable RedisEvictionPolicyCheck evictionCheck) {
        this.redis = new BoundedRedis(Objects.requireNonNull(redis, "redis"), timeout, "resilience-idempotency-redis-",
                evictionCheck);
        this.codec = Objects.requireNonNull(codec, "codec");
        this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
    }

    /**
     * Returns what precedes every key of this store in Redis.
     * @return the key prefix, such as {@code idem:}
     */
    public String keyPrefix() {
        return this.keyPrefix;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Always {@code true}: stored data is read only into the declared type or a subtype
     * it allows, and {@code Object} or a type variable declares none.
     */
    @Override
    public boolean requiresDeclaredResultType() {
        return true;
    }

    /**
     * {@inheritDoc}
     * <p>
     * The lease expiry of an {@link ClaimResult.InProgress} is the time left on the lease
     * as Redis counts it (the entry's own expiry) added to this JVM's clock, so a clock
     * skew between the two machines does not shift it. A {@link ClaimResult.Completed}
     * holds an {@link dev.resilience.core.idempotency.EncodedResult}.
     * @throws IllegalArgumentException if {@code lease} is not positive
     */
    @Override
    public ClaimResult claim(String key, String fingerprint, Duration lease) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(fingerprint, "fingerprint");
        String leaseMillis = millis(lease, "lease");
        String token = this.tokenPrefix + Long.toHexString(this.claims.incrementAndGet());
        List<?> reply = run("claim", CLAIM, key, fingerprint, token, leaseMillis);
        try {
            return switch (text(reply, 0)) {
                case "ACQUIRED" -> new ClaimResult.Acquired(token);
                case "COMPLETED" -> new ClaimResult.Completed(completed(key, text(reply, 1), text(reply, 2)));
                case "IN_PROGRESS" ->
                    new ClaimResult.InProgress(Instant.now().plusMillis(Math.max(0, Long.parseLong(text(reply, 1)))));
                case "MISMATCH" -> new ClaimResult.Mismatch();
                default -> throw new IllegalStateException("unknown state " + reply.get(0));
            };
        }
        catch (RuntimeException ex) {
            throw new IdempotencyStoreException(
                    "Idempotency store failed to claim key '" + key + "': unexpected reply from Redis " + reply, ex);
        }
    }

    /**
     * Stores a result as {@link #complete(String, String, Object, Type, Duration)} does,
     * with {@code Object} as its declared type: positions that the result's own classes
     * declare as interfaces or abstract classes keep the class of their value, the type
     * arguments of a generic result (the elements of a {@code List}) do not.
     * @throws IdempotencyResultNotStorableException when the value cannot be written as
     * JSON; nothing is sent to Redis
     * @throws IllegalArgumentException if {@code ttl} is not positive
     */
    @Override
    public boolean complete(String key, String ownerToken, @Nullable Object value, Duration ttl) {
        return complete(key, ownerToken, value, Object.class, ttl);
    }

    /**
     * {@inheritDoc}
     * <p>
     * The value is written as JSON for its declared type specialized to its class, so a
     * {@code List<Parcel>} holding records of a sealed {@code Parcel} keeps each
     * element's class, which its replay needs (see {@link ResultTyping}); a value whose
     * class is its declared type, such as a plain record, is written as it is. A
     * {@link NotReplayableResult} is kept as its reason under the type
     * {@value #NOT_REPLAYABLE_TYPE}, which no class can have, and comes back from
     * {@link #claim} as a {@code NotReplayableResult}.
     * @throws IdempotencyResultNotStorableException when the value cannot be written as
     * JSON; nothing is sent to Redis
     * @throws IllegalArgumentException if {@code ttl} is not positive
     */
    @Override
    public boolean complete(String key, String ownerToken, @Nullable Object value, Type type, Duration ttl) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(ownerToken, "ownerToken");
        Objects.requireNonNull(type, "type");
        String ttlMillis = millis(ttl, "ttl");
        String stored;
        String storedType;
        if (value instanceof NotReplayableResult notReplayable) {
            stored = notReplayable.reason();
            storedType = NOT_REPLAYABLE_TYPE;
        }
        else {
            stored = this.codec.write(value, type);
            storedType = (value != null) ? value.getClass().getName() : "";
        }
        return isOne("complete", key, run("complete", COMPLETE, key, ownerToken, ttlMillis, stored, storedType));
    }

    @Override
    public boolean release(String key, String ownerToken) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(ownerToken, "ownerToken");
        return isOne("release", key, run("release", RELEASE, key, ownerToken));
    }

    private <T> T run(String operation, RedisScript<T> script, String key, String... args) {
        T reply;
        try {
            reply = this.redis.script(script, List.of(this.keyPrefix + key), args);
        }
        catch (RuntimeException ex) {
            throw new IdempotencyStoreException(
                    "Idempotency store failed to " + operation + " key '" + key + "': " + ex.getMessage(), ex);
        }
        if (reply == null || (reply instanceof List<?> list && list.isEmpty())) {
            throw new IdempotencyStoreException(
                    "Idempotency store failed to " + operation + " key '" + key + "': empty reply from Redis");
        }
        return reply;
    }

    private Object completed(String key, String value, String type) {
        return NOT_REPLAYABLE_TYPE.equals(type) ? new NotReplayableResult(value) : this.codec.read(key, value, type);
    }

    private static String text(List<?> reply, int index) {
        if (reply.size() <= index || !(reply.get(index) instanceof String text)) {
            throw new IllegalStateException("no text at position " + index);
        }
        return text;
    }

    private static boolean isOne(String operation, String key, Long reply) {
        if (reply != 0 && reply != 1) {
            throw new IdempotencyStoreException("Idempotency store failed to " + operation + " key '" + key
                    + "': unexpected reply from Redis " + reply);
        }
        return reply == 1;
    }

    private static String millis(Duration duration, String name) {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + duration);
        }
        long millis = (duration.compareTo(Duration.ofMillis(MAX_MILLIS)) > 0) ? MAX_MILLIS
                : Math.max(1, duration.plusNanos(999_999).toMillis());
        return Long.toString(millis);
    }

}
