package dev.resilience.core;

/**
 * How a protected call ended.
 */
public enum ExecutionStatus {

    /** A value was produced, by the method or by a fallback, or replayed. */
    SUCCESS,

    /** The final error was not retryable: a business answer such as a declined card. */
    FAILURE,

    /** Retryable errors exhausted the attempts, the retry budget or the fallbacks. */
    ERROR,

    /** An attempt overran its timeout, or the call's deadline passed. */
    TIMEOUT,

    /**
     * Refused without running: the breaker was open, the bulkhead full, or the
     * idempotency key was in progress.
     */
    REJECTED

}
