package dev.resilience.core.hedging;

import java.time.Duration;
import java.util.Objects;

/**
 * The immutable settings of hedging, for idempotent reads: when an attempt has not
 * answered after {@link #delay()}, another try starts beside it, and another after each
 * further delay, up to {@link #maxHedges()} hedges; the first try that succeeds wins and
 * the others are cancelled. Built by a {@link Builder} that rejects an out-of-range
 * setting when it is given, naming the value. Thread-safe.
 */
public final class HedgingPolicy {

    /** The default delay before a hedge starts: 100 milliseconds. */
    public static final Duration DEFAULT_DELAY = Duration.ofMillis(100);

    /** The default number of hedges an attempt may start: 1. */
    public static final int DEFAULT_MAX_HEDGES = 1;

    /** The longest delay before a hedge starts: 1 hour. */
    public static final Duration MAX_DELAY = Duration.ofHours(1);

    /** The fewest hedges an attempt may be allowed: 1. */
    public static final int LOWEST_MAX_HEDGES = 1;

    /** The most hedges an attempt may be allowed: 10. */
    public static final int HIGHEST_MAX_HEDGES = 10;

    private final Duration delay;

    private final int maxHedges;

    private HedgingPolicy(Builder builder) {
        this.delay = builder.delay;
        this.maxHedges = builder.maxHedges;
    }

    /**
     * Returns a policy of the given settings.
     * @param delay how long an attempt runs unanswered before a hedge starts
     * @param maxHedges how many hedges an attempt may start
     * @return the policy
     * @throws IllegalArgumentException if a setting is out of range
     */
    public static HedgingPolicy of(Duration delay, int maxHedges) {
        return builder().delay(delay).maxHedges(maxHedges).build();
    }

    /**
     * Starts settings from the defaults.
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns how long an attempt runs unanswered before a hedge starts, and between one
     * hedge and the next.
     * @return the delay, positive
     */
    public Duration delay() {
        return this.delay;
    }

    /**
     * Returns how many hedges one attempt may start beside its first try.
     * @return the number of hedges, at least {@value #LOWEST_MAX_HEDGES}
     */
    public int maxHedges() {
        return this.maxHedges;
    }

    @Override
    public String toString() {
        return "HedgingPolicy[delay=" + this.delay + ", maxHedges=" + this.maxHedges + "]";
    }

    /**
     * Builds a {@link HedgingPolicy}. Not thread-safe.
     */
    public static final class Builder {

        private Duration delay = DEFAULT_DELAY;

        private int maxHedges = DEFAULT_MAX_HEDGES;

        private Builder() {
        }

        /**
         * Sets how long an attempt runs unanswered before a hedge starts.
         * @param delay the delay, positive and at most {@link #MAX_DELAY}
         * @return this builder
         * @throws IllegalArgumentException if the delay is out of range
         */
        public Builder delay(Duration delay) {
            Objects.requireNonNull(delay, "delay");
            if (delay.isNegative() || delay.isZero() || delay.compareTo(MAX_DELAY) > 0) {
                throw new IllegalArgumentException(
                        "delay must be positive and at most " + MAX_DELAY + ", was " + delay);
            }
            this.delay = delay;
            return this;
        }

        /**
         * Sets how many hedges an attempt may start.
         * @param maxHedges the number, from {@value #LOWEST_MAX_HEDGES} to
         * {@value #HIGHEST_MAX_HEDGES}
         * @return this builder
         * @throws IllegalArgumentException if the number is out of range
         */
        public Builder maxHedges(int maxHedges) {
            if (maxHedges < LOWEST_MAX_HEDGES || maxHedges > HIGHEST_MAX_HEDGES) {
                throw new IllegalArgumentException("maxHedges must be between " + LOWEST_MAX_HEDGES + " and "
                        + HIGHEST_MAX_HEDGES + ", was " + maxHedges);
            }
            this.maxHedges = maxHedges;
            return this;
        }

        /**
         * Builds the policy.
         * @return the policy
         */
        public HedgingPolicy build() {
            return new HedgingPolicy(this);
        }

    }

}
