package dev.resilience.core.ratelimiter;

import java.time.Duration;
import java.util.Objects;

/**
 * The settings of a {@link RateLimiter}: {@link #limit()} calls per {@link #period()},
 * and how long a synchronous call may wait for a permit. In any span of time {@code t}
 * the limiter admits at most {@code limit + t / interval} calls, where
 * {@code interval = period / limit}: so at most {@code 2 x limit} in one period that
 * starts with the full burst free, and {@code limit} per period over the long run.
 * Immutable and thread-safe; built by a {@link Builder} that validates every value.
 */
public final class RateLimiterConfig {

    /** The permits per period unless set: {@value}. */
    public static final int DEFAULT_LIMIT = 50;

    /** The period unless set: one second. */
    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);

    /**
     * The wait for a permit unless set: none, a call without a free permit is refused.
     */
    public static final Duration DEFAULT_TIMEOUT = Duration.ZERO;

    /** The largest limit: {@value}. */
    public static final int MAX_LIMIT = 1_000_000;

    /** The shortest period: one millisecond. */
    public static final Duration MIN_PERIOD = Duration.ofMillis(1);

    /** The longest period: one day. */
    public static final Duration MAX_PERIOD = Duration.ofDays(1);

    /** The longest wait for a permit: one hour. */
    public static final Duration MAX_TIMEOUT = Duration.ofHours(1);

    private final int limit;

    private final Duration period;

    private final Duration timeout;

    private RateLimiterConfig(Builder builder) {
        this.limit = builder.limit;
        this.period = builder.period;
        this.timeout = builder.timeout;
    }

    /**
     * Returns a configuration with every setting at its {@code DEFAULT_...} value.
     * @return the default configuration
     */
    public static RateLimiterConfig ofDefaults() {
        return builder().build();
    }

    /**
     * Starts a configuration from the defaults.
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns how many calls a period admits over the long run, which is also the largest
     * burst (see the class description for the bound over any span of time).
     * @return the limit, at least 1
     */
    public int limit() {
        return this.limit;
    }

    /**
     * Returns the period over which {@link #limit()} calls are admitted.
     * @return the period
     */
    public Duration period() {
        return this.period;
    }

    /**
     * Returns how long a call may wait for a permit before it is refused: a synchronous
     * call on its thread, an asynchronous one without a thread.
     * @return the wait, zero for none
     */
    public Duration timeout() {
        return this.timeout;
    }

    @Override
    public String toString() {
        return "RateLimiterConfig[limit=" + this.limit + ", period=" + this.period + ", timeout=" + this.timeout + "]";
    }

    /**
     * Builds a {@link RateLimiterConfig}; every setter validates its value at once. Not
     * thread-safe.
     */
    public static final class Builder {

        private int limit = DEFAULT_LIMIT;

        private Duration period = DEFAULT_PERIOD;

        private Duration timeout = DEFAULT_TIMEOUT;

        private Builder() {
        }

        /**
         * Sets how many calls a period admits over the long run, which is also the burst.
         * @param limit the limit, from 1 to {@value RateLimiterConfig#MAX_LIMIT}
         * @return this builder
         * @throws IllegalArgumentException if the limit is out of range
         */
        public Builder limit(int limit) {
            if (limit < 1 || limit > MAX_LIMIT) {
                throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", was " + limit);
            }
            this.limit = limit;
            return this;
        }

        /**
         * Sets the period over which the limit applies.
         * @param period the period, from {@link RateLimiterConfig#MIN_PERIOD} to
         * {@link RateLimiterConfig#MAX_PERIOD}
         * @return this builder
         * @throws IllegalArgumentException if the period is out of range
         */
        public Builder period(Duration period) {
            Objects.requireNonNull(period, "period");
            if (period.compareTo(MIN_PERIOD) < 0 || period.compareTo(MAX_PERIOD) > 0) {
                throw new IllegalArgumentException(
                        "period must be between " + MIN_PERIOD + " and " + MAX_PERIOD + ", was " + period);
            }
            this.period = period;
            return this;
        }

        /**
         * Sets how long a call may wait for a permit, synchronous or asynchronous.
         * @param timeout the wait, from zero to {@link RateLimiterConfig#MAX_TIMEOUT}
         * @return this builder
         * @throws IllegalArgumentException if the wait is negative or too long
         */
        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.compareTo(MAX_TIMEOUT) > 0) {
                throw new IllegalArgumentException("timeout must be between 0 and " + MAX_TIMEOUT + ", was " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Builds the configuration.
         * @return the configuration
         */
        public RateLimiterConfig build() {
            return new RateLimiterConfig(this);
        }

    }

}
