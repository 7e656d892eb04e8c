package dev.resilience.core.idempotency;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of {@link IdempotencyStore#claim}.
 */
public sealed interface ClaimResult {

    /**
     * The caller now owns the key and runs the method, then calls
     * {@link IdempotencyStore#complete} or {@link IdempotencyStore#release} with the
     * token.
     *
     * @param ownerToken the token that proves ownership of this claim
     */
    record Acquired(String ownerToken) implements ClaimResult {
    }

    /**
     * An earlier call with the same key and fingerprint completed; its value is replayed.
     *
     * @param value the stored value, {@code null} if the method returned {@code null}
     */
    record Completed(@Nullable Object value) implements ClaimResult {
    }

    /**
     * An earlier call with the same key and fingerprint is still running.
     *
     * @param leaseExpiresAt when its lease expires and the key can be claimed again
     */
    record InProgress(Instant leaseExpiresAt) implements ClaimResult {
    }

    /**
     * The key is held, running or completed, by a call with another fingerprint.
     */
    record Mismatch() implements ClaimResult {
    }

}
