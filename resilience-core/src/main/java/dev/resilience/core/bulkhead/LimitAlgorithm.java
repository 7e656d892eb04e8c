package dev.resilience.core.bulkhead;

/**
 * How an {@link BulkheadType#ADAPTIVE adaptive} bulkhead moves its limit.
 */
public enum LimitAlgorithm {

    /**
     * Additive increase, multiplicative decrease, once per window of calls (as many as
     * the limit, at least ten): the limit grows by one after a window whose calls all
     * succeeded within {@link BulkheadConfig#latencyThreshold()} on average while the
     * bulkhead was busy, and is multiplied by {@link BulkheadConfig#DECREASE_FACTOR}
     * after a window in which a call failed or whose average latency reached the
     * threshold.
     */
    AIMD,

    /**
     * The limit follows how the average latency of each window of calls compares with the
     * latency the bulkhead is used to: it shrinks while the latency is more than one and
     * a half times the normal, and grows while it is within that. A latency that halving
     * the limit does not bring down becomes the new normal. Needs no threshold.
     */
    GRADIENT

}
