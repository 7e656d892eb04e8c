package dev.resilience.core.bulkhead;

import java.time.Duration;
import java.util.Objects;

import dev.resilience.core.time.Durations;

/**
 * The immutable settings of a {@link Bulkhead}, built by a {@link Builder} that rejects
 * an out-of-range setting when it is given, naming the value; settings that depend on
 * each other are checked by {@link Builder#build()}.
 */
public final class BulkheadConfig {

    /** The default type: {@link BulkheadType#FIXED}. */
    public static final BulkheadType DEFAULT_TYPE = BulkheadType.FIXED;

    /**
     * The default number of concurrent calls: 25; the initial limit of an adaptive
     * bulkhead.
     */
    public static final int DEFAULT_MAX_CONCURRENT_CALLS = 25;

    /** The default longest wait for a permit: none, a full bulkhead refuses at once. */
    public static final Duration DEFAULT_MAX_WAIT = Duration.ZERO;

    /** The longest wait for a permit: one hour, as a rate limiter's longest wait. */
    public static final Duration MAX_MAX_WAIT = Duration.ofHours(1);

    /** The default lowest limit of an adaptive bulkhead: 1. */
    public static final int DEFAULT_MIN_LIMIT = 1;

    /** The default highest limit of an adaptive bulkhead: 200. */
    public static final int DEFAULT_MAX_LIMIT = 200;

    /** The default algorithm of an adaptive bulkhead: {@link LimitAlgorithm#GRADIENT}. */
    public static final LimitAlgorithm DEFAULT_ALGORITHM = LimitAlgorithm.GRADIENT;

    /**
     * The default average latency of a window of calls from which an
     * {@link LimitAlgorithm#AIMD} bulkhead counts its downstream as overloaded: 1 second.
     */
    public static final Duration DEFAULT_LATENCY_THRESHOLD = Duration.ofSeconds(1);

    /** The longest latency threshold: 1 hour. */
    public static final Duration MAX_LATENCY_THRESHOLD = Duration.ofHours(1);

    /**
     * The factor an adaptive limit is multiplied by, at most, after a window of calls in
     * which one failed, and an {@link LimitAlgorithm#AIMD} limit after a window whose
     * latency reached the threshold: 0.9.
     */
    public static final double DECREASE_FACTOR = 0.9;

    /** The lowest value of any limit or number of concurrent calls: 1. */
    public static final int LOWEST_LIMIT = 1;

    /** The highest value of any limit or number of concurrent calls: 100,000. */
    public static final int HIGHEST_LIMIT = 100_000;

    private final BulkheadType type;

    private final int maxConcurrentCalls;

    private final Duration maxWait;

    private final int minLimit;

    private final int maxLimit;

    private final LimitAlgorithm algorithm;

    private final Duration latencyThreshold;

    private BulkheadConfig(Builder builder) {
        this.type = builder.type;
        this.maxConcurrentCalls = builder.maxConcurrentCalls;
        this.maxWait = builder.maxWait;
        this.minLimit = builder.minLimit;
        this.maxLimit = builder.maxLimit;
        this.algorithm = builder.algorithm;
        this.latencyThreshold = builder.latencyThreshold;
    }

    /**
     * Returns the default settings: a fixed bulkhead of
     * {@value #DEFAULT_MAX_CONCURRENT_CALLS} concurrent calls that does not wait.
     * @return the default settings
     */
    public static BulkheadConfig ofDefaults() {
        return builder().build();
    }

    /**
     * Starts settings from the defaults.
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns whether the limit is fixed or adaptive.
     * @return the type
     */
    public BulkheadType type() {
        return this.type;
    }

    /**
     * Returns the fixed limit of concurrent calls, or the initial limit of an adaptive
     * bulkhead.
     * @return the number of concurrent calls
     */
    public int maxConcurrentCalls() {
        return this.maxConcurrentCalls;
    }

    /**
     * Returns how long a call waits for a permit when all are in use before it is
     * refused.
     * @return the longest wait, zero for none
     */
    public Duration maxWait() {
        return this.maxWait;
    }

    /**
     * Returns the lowest limit of an adaptive bulkhead.
     * @return the lowest limit
     */
    public int minLimit() {
        return this.minLimit;
    }

    /**
     * Returns the highest limit of an adaptive bulkhead.
     * @return the highest limit
     */
    public int maxLimit() {
        return this.maxLimit;
    }

    /**
     * Returns how an adaptive bulkhead moves its limit.
     * @return the algorithm
     */
    public LimitAlgorithm algorithm() {
        return this.algorithm;
    }

    /**
     * Returns the average latency of a window of calls from which an
     * {@link LimitAlgorithm#AIMD} bulkhead counts its downstream as overloaded.
     * @return the threshold
     */
    public Duration latencyThreshold() {
        return this.latencyThreshold;
    }

    @Override
    public String toString() {
        return "BulkheadConfig[type=" + this.type + ", maxConcurrentCalls=" + this.maxConcurrentCalls + ", maxWait="
                + this.maxWait + ", minLimit=" + this.minLimit + ", maxLimit=" + this.maxLimit + ", algorithm="
                + this.algorithm + ", latencyThreshold=" + this.latencyThreshold + "]";
    }

    /**
     * Builds a {@link BulkheadConfig}. Not thread-safe.
     */
    public static final class Builder {

        private BulkheadType type = DEFAULT_TYPE;

        private int maxConcurrentCalls = DEFAULT_MAX_CONCURRENT_CALLS;

        private Duration maxWait = DEFAULT_MAX_WAIT;

        private int minLimit = DEFAULT_MIN_LIMIT;

        private int maxLimit = DEFAULT_MAX_LIMIT;

        private LimitAlgorithm algorithm = DEFAULT_ALGORITHM;

        private Duration latencyThreshold = DEFAULT_LATENCY_THRESHOLD;

        private Builder() {
        }

        /**
         * Sets whether the limit is fixed or adaptive.
         * @param type the type
         * @return this builder
         */
        public Builder type(BulkheadType type) {
            this.type = Objects.requireNonNull(type, "type");
            return this;
        }

        /**
         * Sets the fixed limit of concurrent calls, or the initial limit of an adaptive
         * bulkhead.
         * @param maxConcurrentCalls from {@value #LOWEST_LIMIT} to
         * {@value #HIGHEST_LIMIT}
         * @return this builder
         * @throws IllegalArgumentException if the number is out of range
         */
        public Builder maxConcurrentCalls(int maxConcurrentCalls) {
            this.maxConcurrentCalls = checkLimit("maxConcurrentCalls", maxConcurrentCalls);
            return this;
        }

        /**
         * Sets how long a call waits for a permit when all are in use.
         * @param maxWait zero (the default: refuse at once) or positive, at most
         * {@link BulkheadConfig#MAX_MAX_WAIT}
         * @return this builder
         * @throws IllegalArgumentException if the duration is negative or too long
         */
        public Builder maxWait(Duration maxWait) {
            Objects.requireNonNull(maxWait, "maxWait");
            if (maxWait.isNegative()) {
                throw new IllegalArgumentException("maxWait must not be negative, was " + maxWait);
            }
            if (maxWait.compareTo(MAX_MAX_WAIT) > 0) {
                throw new IllegalArgumentException("maxWait must be at most " + MAX_MAX_WAIT + ", was " + maxWait);
            }
            this.maxWait = maxWait;
            return this;
        }

        /**
         * Sets the lowest limit of an adaptive bulkhead.
         * @param minLimit from {@value #LOWEST_LIMIT} to {@value #HIGHEST_LIMIT}
         * @return this builder
         * @throws IllegalArgumentException if the limit is out of range
         */
        public Builder minLimit(int minLimit) {
            this.minLimit = checkLimit("minLimit", minLimit);
            return this;
        }

        /**
         * Sets the highest limit of an adaptive bulkhead.
         * @param maxLimit from {@value #LOWEST_LIMIT} to {@value #HIGHEST_LIMIT}
         * @return this builder
         * @throws IllegalArgumentException if the limit is out of range
         */
        public Builder maxLimit(int maxLimit) {
            this.maxLimit = checkLimit("maxLimit", maxLimit);
            return this;
        }

        /**
         * Sets how an adaptive bulkhead moves its limit.
         * @param algorithm the algorithm
         * @return this builder
         */
        public Builder algorithm(LimitAlgorithm algorithm) {
            this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
            return this;
        }

        /**
         * Sets the average latency of a window of calls from which an
         * {@link LimitAlgorithm#AIMD} bulkhead counts its downstream as overloaded.
         * @param latencyThreshold positive and at most {@link #MAX_LATENCY_THRESHOLD}
         * @return this builder
         * @throws IllegalArgumentException if the duration is out of range
         */
        public Builder latencyThreshold(Duration latencyThreshold) {
            Objects.requireNonNull(latencyThreshold, "latencyThreshold");
            if (latencyThreshold.isNegative() || latencyThreshold.isZero()
                    || latencyThreshold.compareTo(MAX_LATENCY_THRESHOLD) > 0) {
                throw new IllegalArgumentException("latencyThreshold must be positive and at most "
                        + Durations.format(MAX_LATENCY_THRESHOLD) + ", was " + latencyThreshold);
            }
            this.latencyThreshold = latencyThreshold;
            return this;
        }

        /**
         * Builds the settings.
         * @return the settings
         * @throws IllegalArgumentException if {@code minLimit} is above {@code maxLimit},
         * or an adaptive bulkhead's {@code maxConcurrentCalls} lies outside them
         */
        public BulkheadConfig build() {
            if (this.minLimit > this.maxLimit) {
                throw new IllegalArgumentException(
                        "minLimit " + this.minLimit + " must not be above maxLimit " + this.maxLimit);
            }
            if (this.type == BulkheadType.ADAPTIVE
                    && (this.maxConcurrentCalls < this.minLimit || this.maxConcurrentCalls > this.maxLimit)) {
                throw new IllegalArgumentException("maxConcurrentCalls " + this.maxConcurrentCalls
                        + " of an adaptive bulkhead must lie between minLimit " + this.minLimit + " and maxLimit "
                        + this.maxLimit);
            }
            return new BulkheadConfig(this);
        }

        private static int checkLimit(String setting, int value) {
            if (value < LOWEST_LIMIT || value > HIGHEST_LIMIT) {
                throw new IllegalArgumentException(
                        setting + " must be between " + LOWEST_LIMIT + " and " + HIGHEST_LIMIT + ", was " + value);
            }
            return value;
        }

    }

}
