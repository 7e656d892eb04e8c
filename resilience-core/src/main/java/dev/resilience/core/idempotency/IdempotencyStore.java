package dev.resilience.core.idempotency;

import java.lang.reflect.Type;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Where idempotent calls claim their key, store their result and find earlier results.
 *
 * <p>
 * An entry is IN_PROGRESS (with an owner token and a lease) or COMPLETED (with a value
 * and a time to live); once its lease or time to live has passed it counts as absent.
 * Implementations are thread-safe, and every method may throw
 * {@link IdempotencyStoreException} when the store is unreachable.
 */
public interface IdempotencyStore {

    /**
     * Claims a key for a call, or reports who holds it.
     * @param key the store key, {@link IdempotencyPolicy#storeKey(String, String)} of the
     * caller's scope and validated key, which the store may prefix
     * @param fingerprint what identifies the call's arguments; a key reused with another
     * fingerprint is a mismatch
     * @param lease how long the claim holds before another call may take the key over;
     * positive
     * @return {@link ClaimResult.Acquired} with a fresh owner token when no live entry
     * exists; {@link ClaimResult.Mismatch} when a live entry has another fingerprint;
     * {@link ClaimResult.Completed} with the stored value when a live COMPLETED entry has
     * the same fingerprint; {@link ClaimResult.InProgress} when a live IN_PROGRESS entry
     * has the same fingerprint
     * @throws IdempotencyStoreException when the store cannot answer or has no room
     */
    ClaimResult claim(String key, String fingerprint, Duration lease);

    /**
     * Stores the result of a claimed call, to be replayed for the time to live. Succeeds
     * only while the entry is IN_PROGRESS and owned by the token: an expired lease that
     * no other call has taken over may still complete, one that was taken over may not.
     * @param key the key
     * @param ownerToken the token from {@link ClaimResult.Acquired}
     * @param value the value to replay, may be {@code null}; a
     * {@link NotReplayableResult} must come back from {@link #claim} as one (or as an
     * {@link EncodedResult} whose decoding throws
     * {@link IdempotencyResultUnavailableException})
     * @param ttl how long the value is replayed; positive
     * @return {@code true} if the entry is now COMPLETED; {@code false}, with nothing
     * changed, otherwise
     * @throws IdempotencyResultNotStorableException when the value cannot be stored (it
     * cannot be encoded, or is too large), with nothing changed
     * @throws IdempotencyStoreException when the store cannot answer
     */
    boolean complete(String key, String ownerToken, @Nullable Object value, Duration ttl);

    /**
     * Stores the result of a claimed call as
     * {@link #complete(String, String, Object, Duration)} does, knowing the type the call
     * declares for it: the type its replays will be decoded into
     * ({@link IdempotencyPolicy#resultType()}). A store that encodes results uses it to
     * keep what a replay needs, such as the classes of the elements of a
     * {@code List<Shape>} whose {@code Shape} is an interface; the default ignores it. A
     * store that wraps another passes it on.
     * @param key the key
     * @param ownerToken the token from {@link ClaimResult.Acquired}
     * @param value the value to replay, may be {@code null}
     * @param type the type the call declares for its value, possibly generic;
     * {@code Object.class} when unknown
     * @param ttl how long the value is replayed; positive
     * @return {@code true} if the entry is now COMPLETED; {@code false}, with nothing
     * changed, otherwise
     * @throws IdempotencyResultNotStorableException when the value cannot be stored, with
     * nothing changed
     * @throws IdempotencyStoreException when the store cannot answer
     */
    default boolean complete(String key, String ownerToken, @Nullable Object value, Type type, Duration ttl) {
        return complete(key, ownerToken, value, ttl);
    }

    /**
     * Tells whether the store reads a replay only into the type the call declares (or a
     * subtype it allows): such a store cannot serve a call that declares {@code Object}
     * or a type variable, whose stored data would otherwise choose the class, and a
     * method declaring one cannot use it. A store that reads results written by other
     * processes, as the Redis store does, returns {@code true}; the default is
     * {@code false}.
     * @return whether calls must declare the type of their results
     */
    default boolean requiresDeclaredResultType() {
        return false;
    }

    /**
     * Gives a claimed key up, typically after the call failed, so that a retry of the
     * request can claim it. Succeeds only while the entry is IN_PROGRESS and owned by the
     * token.
     * @param key the key
     * @param ownerToken the token from {@link ClaimResult.Acquired}
     * @return {@code true} if the entry was removed; {@code false}, with nothing changed,
     * otherwise
     * @throws IdempotencyStoreException when the store cannot answer
     */
    boolean release(String key, String ownerToken);

}
