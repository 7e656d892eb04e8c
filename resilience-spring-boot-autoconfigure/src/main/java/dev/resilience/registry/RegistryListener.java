package dev.resilience.registry;

import dev.resilience.core.circuitbreaker.CircuitBreaker;

/**
 * Told once of every instance a {@link ResilienceRegistry} holds, those that exist when
 * it is added and those created later, so that meters and events can be bound from the
 * start. Both methods have empty defaults.
 */
public interface RegistryListener {

    /**
     * A named instance's statistics were created.
     * @param statistics the statistics
     */
    default void onStatistics(CallStatistics statistics) {
    }

    /**
     * A circuit breaker was created.
     * @param circuitBreaker the breaker
     */
    default void onCircuitBreaker(CircuitBreaker circuitBreaker) {
    }

}
