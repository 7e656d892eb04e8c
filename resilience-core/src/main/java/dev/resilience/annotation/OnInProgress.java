package dev.resilience.annotation;

/**
 * What an {@link Idempotent} call does when another call with the same key is running.
 */
public enum OnInProgress {

    /** Fail at once with {@code IdempotencyInProgressException}. */
    REJECT,

    /** Wait up to the in-progress lease for the first call, then replay its result. */
    WAIT

}
