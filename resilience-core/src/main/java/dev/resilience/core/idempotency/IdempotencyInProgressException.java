package dev.resilience.core.idempotency;

import java.time.Instant;

/**
 * Thrown when a call arrives with a key (and the same fingerprint) while an earlier call
 * with that key is still running.
 */
public class IdempotencyInProgressException extends IdempotencyException {

    private final Instant leaseExpiresAt;

    /**
     * Creates an exception for a key in progress.
     * @param key the key; the message quotes at most its first 40 characters
     * @param leaseExpiresAt when the running call's lease expires, after which the key
     * can be claimed again
     */
    public IdempotencyInProgressException(String key, Instant leaseExpiresAt) {
        super("Idempotency key " + IdempotencyKeys.preview(key) + " is in progress; its lease expires at "
                + leaseExpiresAt);
        this.leaseExpiresAt = leaseExpiresAt;
    }

    /**
     * Returns when the running call's lease expires.
     * @return the lease expiry, a hint for when to try again
     */
    public Instant leaseExpiresAt() {
        return this.leaseExpiresAt;
    }

}
