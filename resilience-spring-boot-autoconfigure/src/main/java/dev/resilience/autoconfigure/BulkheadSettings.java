package dev.resilience.autoconfigure;

import java.time.Duration;

import dev.resilience.core.bulkhead.BulkheadType;
import dev.resilience.core.bulkhead.LimitAlgorithm;
import org.jspecify.annotations.Nullable;

/**
 * The settings of bulkheads, used both for {@code resilience.bulkhead.defaults} and for
 * each of {@code resilience.bulkhead.instances}. A setting left {@code null} is unset: it
 * falls back to the annotation (type, max-concurrent-calls and max-wait; the other
 * settings have no attribute), then to the defaults, then to the built-in value of the
 * core.
 */
public class BulkheadSettings {

    /**
     * Whether the limit is fixed or adaptive (follows the measured latency, between
     * min-limit and max-limit).
     */
    private @Nullable BulkheadType type;

    /**
     * Calls that may run at once; the initial limit of an adaptive bulkhead. From 1 to
     * 100000.
     */
    private @Nullable Integer maxConcurrentCalls;

    /**
     * How long a call waits for a permit when all are taken; 0 refuses at once. At most
     * 1h.
     */
    private @Nullable Duration maxWait;

    /**
     * Lowest limit of an adaptive bulkhead.
     */
    private @Nullable Integer minLimit;

    /**
     * Highest limit of an adaptive bulkhead.
     */
    private @Nullable Integer maxLimit;

    /**
     * How an adaptive bulkhead moves its limit, once per window of calls (as many as the
     * limit, at least 10): gradient (compares the window's average latency with the
     * latency the bulkhead is used to, no threshold to tune) or aimd (grows by one,
     * shrinks by 10% when a call of the window failed or its average latency reached
     * latency-threshold).
     */
    private @Nullable LimitAlgorithm algorithm;

    /**
     * Average latency of a window of calls from which an aimd bulkhead backs off; choose
     * it per service, above the latency it has when healthy. Positive, at most 1h.
     */
    private @Nullable Duration latencyThreshold;

    /**
     * Returns whether the limit is fixed or adaptive.
     * @return the type, or {@code null} if unset
     */
    public @Nullable BulkheadType getType() {
        return this.type;
    }

    /**
     * Sets whether the limit is fixed or adaptive.
     * @param type the type, or {@code null} to unset
     */
    public void setType(@Nullable BulkheadType type) {
        this.type = type;
    }

    /**
     * Returns the number of calls that may run at once.
     * @return the number, or {@code null} if unset
     */
    public @Nullable Integer getMaxConcurrentCalls() {
        return this.maxConcurrentCalls;
    }

    /**
     * Sets the number of calls that may run at once.
     * @param maxConcurrentCalls the number, or {@code null} to unset
     */
    public void setMaxConcurrentCalls(@Nullable Integer maxConcurrentCalls) {
        this.maxConcurrentCalls = maxConcurrentCalls;
    }

    /**
     * Returns the longest wait for a permit.
     * @return the wait, or {@code null} if unset
     */
    public @Nullable Duration getMaxWait() {
        return this.maxWait;
    }

    /**
     * Sets the longest wait for a permit.
     * @param maxWait the wait, or {@code null} to unset
     */
    public void setMaxWait(@Nullable Duration maxWait) {
        this.maxWait = maxWait;
    }

    /**
     * Returns the lowest limit of an adaptive bulkhead.
     * @return the limit, or {@code null} if unset
     */
    public @Nullable Integer getMinLimit() {
        return this.minLimit;
    }

    /**
     * Sets the lowest limit of an adaptive bulkhead.
     * @param minLimit the limit, or {@code null} to unset
     */
    public void setMinLimit(@Nullable Integer minLimit) {
        this.minLimit = minLimit;
    }

    /**
     * Returns the highest limit of an adaptive bulkhead.
     * @return the limit, or {@code null} if unset
     */
    public @Nullable Integer getMaxLimit() {
        return this.maxLimit;
    }

    /**
     * Sets the highest limit of an adaptive bulkhead.
     * @param maxLimit the limit, or {@code null} to unset
     */
    public void setMaxLimit(@Nullable Integer maxLimit) {
        this.maxLimit = maxLimit;
    }

    /**
     * Returns the algorithm of an adaptive bulkhead.
     * @return the algorithm, or {@code null} if unset
     */
    public @Nullable LimitAlgorithm getAlgorithm() {
        return this.algorithm;
    }

    /**
     * Sets the algorithm of an adaptive bulkhead.
     * @param algorithm the algorithm, or {@code null} to unset
     */
    public void setAlgorithm(@Nullable LimitAlgorithm algorithm) {
        this.algorithm = algorithm;
    }

    /**
     * Returns the average latency of a window of calls from which an aimd bulkhead backs
     * off.
     * @return the threshold, or {@code null} if unset
     */
    public @Nullable Duration getLatencyThreshold() {
        return this.latencyThreshold;
    }

    /**
     * Sets the average latency of a window of calls from which an aimd bulkhead backs
     * off.
     * @param latencyThreshold the threshold, or {@code null} to unset
     */
    public void setLatencyThreshold(@Nullable Duration latencyThreshold) {
        this.latencyThreshold = latencyThreshold;
    }

}
