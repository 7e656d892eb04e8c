package dev.resilience.core.bulkhead;

/**
 * How an {@link BulkheadType#ADAPTIVE adaptive} bulkhead moves its limit.
 */
public enum LimitAlgorithm {

    /**
     * Additive increase, multiplicative decrease: the limit grows by one after a call
     * that succeeded within {@link BulkheadConfig#latencyThreshold()} while the bulkhead
     * was busy, and is multiplied by {@link BulkheadConfig#DECREASE_FACTOR} after a call
     * that failed or took longer.
     */
    AIMD,

    /**
     * The limit follows the ratio of a long-term average latency to the latest one: it
     * shrinks as the latency rises above what the bulkhead is used to, and grows while
     * the latency stays at or below it. Needs no threshold.
     */
    GRADIENT

}
