package dev.resilience.core.circuitbreaker;

import java.time.Instant;

/**
 * Receives a {@link CircuitBreaker}'s events. Every method does nothing by default.
 *
 * <p>
 * Listeners run on the thread that caused the event, after the state has changed, so they
 * should be short; the timed transitions of
 * {@link CircuitBreakerConfig#automaticTransitionToHalfOpen()} are told on the breaker's
 * executor. An exception thrown by a listener is logged and otherwise ignored: it never
 * changes the breaker's behaviour.
 */
public interface CircuitBreakerListener {

    /**
     * Called once for every change of state.
     * @param transition the change
     */
    default void onStateTransition(CircuitBreakerTransition transition) {
    }

    /**
     * Called for every call the breaker rejects.
     * @param circuitBreakerName the name of the breaker that rejected the call
     * @param at when it rejected the call
     */
    default void onCallNotPermitted(String circuitBreakerName, Instant at) {
    }

}
