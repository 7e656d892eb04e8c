package dev.resilience.core.circuitbreaker;

/**
 * How a {@link CircuitBreaker}'s sliding window measures its size.
 */
public enum SlidingWindowType {

    /** The window holds the outcomes of the last N calls. */
    COUNT,

    /** The window holds the outcomes of the calls of the last N seconds. */
    TIME

}
