package dev.resilience.core.bulkhead;

/**
 * Whether a {@link Bulkhead}'s limit of concurrent calls is fixed or follows the measured
 * latency.
 */
public enum BulkheadType {

    /** The limit is {@link BulkheadConfig#maxConcurrentCalls()}, always. */
    FIXED,

    /**
     * The limit starts at {@link BulkheadConfig#maxConcurrentCalls()} and moves between
     * {@link BulkheadConfig#minLimit()} and {@link BulkheadConfig#maxLimit()} as the
     * {@link BulkheadConfig#algorithm()} decides, once per window of calls, from their
     * latency and outcomes.
     */
    ADAPTIVE

}
