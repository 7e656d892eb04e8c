package dev.resilience.core.idempotency;

import java.lang.reflect.Type;
import java.time.Duration;

import dev.resilience.annotation.OnInProgress;

/**
 * How a pipeline uses an {@link IdempotencyStore}. Immutable.
 *
 * @param name the namespace of the keys in the store, and the name in metrics
 * @param store where claims and results are kept
 * @param ttl how long a completed result is replayed
 * @param inProgressTtl the lease of a running call; after it another caller may take over
 * @param onInProgress what a call does while another call with its key runs
 * @param resultType the type of the call's value, into which an {@link EncodedResult} is
 * decoded when replayed
 */
public record IdempotencyPolicy(String name, IdempotencyStore store, Duration ttl, Duration inProgressTtl,
        OnInProgress onInProgress, Type resultType) {

    /** The default time a completed result is replayed. */
    public static final Duration DEFAULT_TTL = Duration.ofHours(24);

    /** The default lease of a running call. */
    public static final Duration DEFAULT_IN_PROGRESS_TTL = Duration.ofSeconds(60);

    /**
     * Validates the durations.
     */
    public IdempotencyPolicy {
        requirePositive(ttl, "ttl");
        requirePositive(inProgressTtl, "in-progress-ttl");
    }

    /**
     * Creates a policy whose replayed values are decoded as plain objects.
     * @param name the namespace of the keys in the store, and the name in metrics
     * @param store where claims and results are kept
     * @param ttl how long a completed result is replayed
     * @param inProgressTtl the lease of a running call
     * @param onInProgress what a call does while another call with its key runs
     */
    public IdempotencyPolicy(String name, IdempotencyStore store, Duration ttl, Duration inProgressTtl,
            OnInProgress onInProgress) {
        this(name, store, ttl, inProgressTtl, onInProgress, Object.class);
    }

    /**
     * Returns a copy of this policy whose replayed values are decoded into a type.
     * @param type the type of the call's value
     * @return the new policy
     */
    public IdempotencyPolicy withResultType(Type type) {
        return new IdempotencyPolicy(this.name, this.store, this.ttl, this.inProgressTtl, this.onInProgress, type);
    }

    /**
     * Returns a policy with the default durations that rejects calls while their key is
     * in progress.
     * @param name the namespace of the keys
     * @param store the store
     * @return the policy
     */
    public static IdempotencyPolicy of(String name, IdempotencyStore store) {
        return new IdempotencyPolicy(name, store, DEFAULT_TTL, DEFAULT_IN_PROGRESS_TTL, OnInProgress.REJECT);
    }

    /**
     * Returns the key under which the store keeps a caller's key when the key has no
     * scope.
     * @param key the caller's validated key
     * @return {@code storeKey("", key)}
     * @deprecated keys are scoped to their caller; use {@link #storeKey(String, String)}
     */
    @Deprecated
    public String storeKey(String key) {
        return storeKey("", key);
    }

    /**
     * Returns the key under which the store keeps a caller's key:
     * {@code <scope>:<name>:<key>}, where the scope (when not empty) and the key are each
     * replaced by their SHA-256 digest in unpadded base64url (43 characters, no {@code :}
     * and no braces). So the client's key neither grows the store key nor chooses a Redis
     * cluster slot, and no two different (scope, name, key) triples share a store key,
     * whatever colons they contain. The store adds its own prefix. The digest hides
     * neither a guessable key nor a guessable scope from someone who can read the store.
     * @param scope whose key it is, such as the authenticated caller's name; empty for
     * none
     * @param key the caller's validated key
     * @return the key in the store's namespace of this policy's name and the scope
     */
    public String storeKey(String scope, String key) {
        String scopePart = scope.isEmpty() ? "" : IdempotencyKeys.digest(scope);
        return scopePart + ':' + this.name + ':' + IdempotencyKeys.digest(key);
    }

    private static void requirePositive(Duration duration, String setting) {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("Idempotency " + setting + " must be positive, was " + duration);
        }
    }
}
