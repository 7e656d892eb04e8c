package dev.resilience.core.circuitbreaker;

import java.time.Instant;

/**
 * A change of a {@link CircuitBreaker}'s state.
 *
 * @param circuitBreakerName the name of the breaker that moved
 * @param from the state it left
 * @param to the state it entered
 * @param at when it moved, read from the breaker's time source
 */
public record CircuitBreakerTransition(String circuitBreakerName, CircuitBreakerState from, CircuitBreakerState to,
        Instant at) {
}
