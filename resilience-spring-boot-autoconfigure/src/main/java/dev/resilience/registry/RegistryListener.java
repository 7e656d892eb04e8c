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
     * A retry instance was created: the statistics of its name count its retries, the
     * retries its budget refused and its dead letters, which only a retried call has.
     * @param statistics the statistics of the retry instance's name
     */
    default void onRetry(CallStatistics statistics) {
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
