package dev.resilience.core.idempotency;

/**
 * What the idempotency store decided for a call; the values of the {@code outcome} tag of
 * {@code resilience.idempotency.requests}.
 */
public enum IdempotencyOutcome {

    /** The key was claimed: the method ran. */
    EXECUTED,

    /** The key was completed: the stored result was returned. */
    REPLAYED,

    /** Another call with the key was running. */
    IN_PROGRESS,

    /** The key was used before with another fingerprint. */
    MISMATCH,

    /** The store could not be reached: the method did not run. */
    STORE_ERROR,

    /**
     * The key was completed, but its result cannot be given back (see
     * {@link IdempotencyResultUnavailableException}): the method did not run.
     */
    UNAVAILABLE,

    /**
     * The method ran, but storing its result failed at first; the completion is retried
     * until the lease ends.
     */
    COMPLETE_FAILED

}
