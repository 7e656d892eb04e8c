package dev.resilience.registry;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.ratelimiter.RateLimiter;

/**
 * Told once of every instance a {@link ResilienceRegistry} holds, those that exist when
 * it is added and those created later, so that meters and events can be bound from the
 * start. Every method has an empty default.
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

    /**
     * A bulkhead was created.
     * @param bulkhead the bulkhead
     */
    default void onBulkhead(Bulkhead bulkhead) {
    }

    /**
     * A rate limiter was created.
     * @param rateLimiter the rate limiter
     */
    default void onRateLimiter(RateLimiter rateLimiter) {
    }

    /**
     * A hedging instance was created.
     * @param hedging the hedging instance
     */
    default void onHedging(HedgingInstance hedging) {
    }

}
