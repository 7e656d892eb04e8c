package dev.resilience.core.circuitbreaker;

/**
 * The states of a {@link CircuitBreaker}.
 */
public enum CircuitBreakerState {

    /** Calls are permitted and their outcomes recorded in the sliding window. */
    CLOSED,

    /** Calls are rejected until the wait in open has passed. */
    OPEN,

    /**
     * A fixed number of probe calls are permitted; their outcomes decide the next state.
     */
    HALF_OPEN,

    /** Set by hand: every call is rejected until the breaker is moved by hand again. */
    FORCED_OPEN,

    /** Set by hand: every call is permitted and nothing is recorded. */
    DISABLED

}
