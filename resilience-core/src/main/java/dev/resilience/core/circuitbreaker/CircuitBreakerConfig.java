package dev.resilience.core.circuitbreaker;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

import dev.resilience.core.support.ExceptionFilter;
import org.jspecify.annotations.Nullable;

/**
 * The immutable settings of a {@link CircuitBreaker}, built by a {@link Builder} that
 * rejects an out-of-range setting when it is given.
 *
 * <p>
 * Longer than 400 lines because it is an immutable policy and its validating builder in
 * one file, as the builder pattern of this API wants: each of its thirteen settings has a
 * documented accessor and a documented builder method.
 */
public final class CircuitBreakerConfig {

    /** The default sliding window type: {@link SlidingWindowType#COUNT}. */
    public static final SlidingWindowType DEFAULT_SLIDING_WINDOW_TYPE = SlidingWindowType.COUNT;

    /** The default sliding window size: 100 calls (or seconds for a time window). */
    public static final int DEFAULT_SLIDING_WINDOW_SIZE = 100;

    /**
     * The default number of calls the window needs before it can open the breaker: 20.
     */
    public static final int DEFAULT_MINIMUM_CALLS = 20;

    /** The default failure rate, in percent, that opens the breaker: 50. */
    public static final float DEFAULT_FAILURE_RATE_THRESHOLD = 50;

    /** The default duration from which a call counts as slow: 60 seconds. */
    public static final Duration DEFAULT_SLOW_CALL_DURATION = Duration.ofSeconds(60);

    /** The default slow-call rate, in percent, that opens the breaker: 100. */
    public static final float DEFAULT_SLOW_CALL_RATE_THRESHOLD = 100;

    /**
     * The default time an open breaker rejects calls before it lets probes through: 30
     * seconds.
     */
    public static final Duration DEFAULT_WAIT_IN_OPEN = Duration.ofSeconds(30);

    /**
     * The default number of probe calls a half-open breaker lets through and decides on:
     * 5.
     */
    public static final int DEFAULT_HALF_OPEN_CALLS = 5;

    /**
     * The default longest time a half-open breaker waits for its probes before it opens
     * again: 60 seconds.
     */
    public static final Duration DEFAULT_MAX_WAIT_IN_HALF_OPEN = Duration.ofSeconds(60);

    /**
     * By default an open breaker moves to half open only when a call asks for permission.
     */
    public static final boolean DEFAULT_AUTOMATIC_TRANSITION_TO_HALF_OPEN = false;

    /** The largest size of a count window: 1,000,000 calls. Every size is at least 1. */
    public static final int MAX_COUNT_WINDOW_SIZE = 1_000_000;

    /** The largest size of a time window: 3600 seconds, one hour. */
    public static final int MAX_TIME_WINDOW_SECONDS = 3600;

    /**
     * The largest number of probe calls of a half-open breaker: 1,000,000. Every number
     * is at least 1.
     */
    public static final int MAX_HALF_OPEN_CALLS = 1_000_000;

    private static final Predicate<@Nullable Object> NO_FAILURE_RESULT = (result) -> false;

    /**
     * The largest rate threshold, failure or slow call: 100 percent. A threshold is
     * greater than 0 and at most this.
     */
    public static final int MAX_RATE_THRESHOLD = 100;

    /**
     * The longest duration of a setting: what fits in a {@code long} of nanoseconds,
     * about 292 years.
     */
    static final Duration MAX_DURATION = Duration.ofNanos(Long.MAX_VALUE);

    private final SlidingWindowType slidingWindowType;

    private final int slidingWindowSize;

    private final int minimumCalls;

    private final float failureRateThreshold;

    private final Duration slowCallDuration;

    private final float slowCallRateThreshold;

    private final Duration waitInOpen;

    private final int halfOpenCalls;

    private final Duration maxWaitInHalfOpen;

    private final boolean automaticTransitionToHalfOpen;

    private final List<Class<? extends Throwable>> recordOn;

    private final List<Class<? extends Throwable>> ignoreOn;

    private final Predicate<@Nullable Object> failOnResult;

    private CircuitBreakerConfig(Builder builder) {
        this.slidingWindowType = builder.slidingWindowType;
        this.slidingWindowSize = builder.slidingWindowSize;
        this.minimumCalls = builder.minimumCalls;
        this.failureRateThreshold = builder.failureRateThreshold;
        this.slowCallDuration = builder.slowCallDuration;
        this.slowCallRateThreshold = builder.slowCallRateThreshold;
        this.waitInOpen = builder.waitInOpen;
        this.halfOpenCalls = builder.halfOpenCalls;
        this.maxWaitInHalfOpen = builder.maxWaitInHalfOpen;
        this.automaticTransitionToHalfOpen = builder.automaticTransitionToHalfOpen;
        this.recordOn = builder.recordOn;
        this.ignoreOn = builder.ignoreOn;
        this.failOnResult = builder.failOnResult;
    }

    /**
     * Returns a configuration with every setting at its {@code DEFAULT_...} value.
     * @return the default configuration
     */
    public static CircuitBreakerConfig ofDefaults() {
        return builder().build();
    }

    /**
     * Returns a builder with every setting at its default.
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns a builder holding this configuration's settings, to derive a changed copy.
     * @return a new builder
     */
    public Builder toBuilder() {
        return new Builder().slidingWindowType(this.slidingWindowType)
            .slidingWindowSize(this.slidingWindowSize)
            .minimumCalls(this.minimumCalls)
            .failureRateThreshold(this.failureRateThreshold)
            .slowCallDuration(this.slowCallDuration)
            .slowCallRateThreshold(this.slowCallRateThreshold)
            .waitInOpen(this.waitInOpen)
            .halfOpenCalls(this.halfOpenCalls)
            .maxWaitInHalfOpen(this.maxWaitInHalfOpen)
            .automaticTransitionToHalfOpen(this.automaticTransitionToHalfOpen)
            .recordOn(this.recordOn)
            .ignoreOn(this.ignoreOn)
            .failOnResult(this.failOnResult);
    }

    /**
     * Returns how the sliding window measures its size.
     * @return the window type
     */
    public SlidingWindowType slidingWindowType() {
        return this.slidingWindowType;
    }

    /**
     * Returns the size of the sliding window: calls for a count window, seconds for a
     * time window.
     * @return the window size
     */
    public int slidingWindowSize() {
        return this.slidingWindowSize;
    }

    /**
     * Returns how many calls the window must hold before its rates can open the breaker.
     * A count window smaller than this needs only its size.
     * @return the minimum number of calls
     */
    public int minimumCalls() {
        return this.minimumCalls;
    }

    /**
     * Returns the failure rate, in percent, from which the breaker opens.
     * @return the threshold, in (0, 100]
     */
    public float failureRateThreshold() {
        return this.failureRateThreshold;
    }

    /**
     * Returns the duration from which a call counts as slow.
     * @return the slow-call duration
     */
    public Duration slowCallDuration() {
        return this.slowCallDuration;
    }

    /**
     * Returns the slow-call rate, in percent, from which the breaker opens.
     * @return the threshold, in (0, 100]
     */
    public float slowCallRateThreshold() {
        return this.slowCallRateThreshold;
    }

    /**
     * Returns how long an open breaker rejects calls before it lets probes through.
     * @return the wait in open
     */
    public Duration waitInOpen() {
        return this.waitInOpen;
    }

    /**
     * Returns how many probe calls a half-open breaker lets through; it decides once all
     * their outcomes are recorded.
     * @return the number of probe calls
     */
    public int halfOpenCalls() {
        return this.halfOpenCalls;
    }

    /**
     * Returns how long a half-open breaker waits for all its probes to report: once this
     * has passed since it entered half open, it opens again for a fresh wait in open, and
     * the outcomes its probes report later are ignored.
     * @return the longest wait in half open
     */
    public Duration maxWaitInHalfOpen() {
        return this.maxWaitInHalfOpen;
    }

    /**
     * Tells whether an open breaker moves to half open by itself once the wait in open
     * has passed, on a timer, rather than on the first call that asks for permission
     * after it. The same timer then also ends a half-open state that has waited
     * {@link #maxWaitInHalfOpen()} for its probes.
     * @return {@code true} if the transitions to half open (and back to open) are timed
     */
    public boolean automaticTransitionToHalfOpen() {
        return this.automaticTransitionToHalfOpen;
    }

    /**
     * Returns the exception types that count as failures; empty means every exception
     * that is not ignored.
     * @return the recorded types, unmodifiable
     */
    public List<Class<? extends Throwable>> recordOn() {
        return this.recordOn;
    }

    /**
     * Returns the exception types that count neither as failures nor as successes.
     * @return the ignored types, unmodifiable
     */
    public List<Class<? extends Throwable>> ignoreOn() {
        return this.ignoreOn;
    }

    /**
     * Tells whether an error is ignored: an instance of a type in {@link #ignoreOn()}.
     * @param error the error a call ended with
     * @return {@code true} if the call counts neither as a failure nor as a success
     */
    public boolean isIgnored(Throwable error) {
        return ExceptionFilter.isInstanceOfAny(error, this.ignoreOn);
    }

    /**
     * Tells whether an error counts as a failure: it is not ignored and either
     * {@link #recordOn()} is empty or it is an instance of a type there. An error that is
     * neither ignored nor recorded counts as a success.
     * @param error the error a call ended with
     * @return {@code true} if the call counts as a failure
     */
    public boolean isRecordedAsFailure(Throwable error) {
        return ExceptionFilter.matches(error, this.recordOn, this.ignoreOn);
    }

    /**
     * Tells whether a value a call returned counts as a failure, by the predicate set
     * with {@link Builder#failOnResult}; by default no value does.
     * @param result the value
     * @return {@code true} if the call counts as a failure
     * @throws RuntimeException what the predicate threw
     */
    public boolean isFailureResult(@Nullable Object result) {
        return this.failOnResult.test(result);
    }

    /**
     * Tells whether a predicate was set with {@link Builder#failOnResult}, so that a
     * value a call returned may count as a failure.
     * @return {@code false} when every value counts as a success
     */
    public boolean judgesResults() {
        return this.failOnResult != NO_FAILURE_RESULT;
    }

    long slowCallDurationNanos() {
        return this.slowCallDuration.toNanos();
    }

    long waitInOpenNanos() {
        return this.waitInOpen.toNanos();
    }

    long maxWaitInHalfOpenNanos() {
        return this.maxWaitInHalfOpen.toNanos();
    }

    @Override
    public String toString() {
        return "CircuitBreakerConfig[slidingWindowType=" + this.slidingWindowType + ", slidingWindowSize="
                + this.slidingWindowSize + ", minimumCalls=" + this.minimumCalls + ", failureRateThreshold="
                + this.failureRateThreshold + ", slowCallDuration=" + this.slowCallDuration + ", slowCallRateThreshold="
                + this.slowCallRateThreshold + ", waitInOpen=" + this.waitInOpen + ", halfOpenCalls="
                + this.halfOpenCalls + ", maxWaitInHalfOpen=" + this.maxWaitInHalfOpen
                + ", automaticTransitionToHalfOpen=" + this.automaticTransitionToHalfOpen + ", recordOn="
                + this.recordOn + ", ignoreOn=" + this.ignoreOn + "]";
    }

    /**
     * Builds a {@link CircuitBreakerConfig}. Each setter rejects an out-of-range value
     * with an {@link IllegalArgumentException} naming the setting; {@link #build()}
     * checks the window size against the window type. Not thread-safe.
     */
    public static final class Builder {

        private SlidingWindowType slidingWindowType = DEFAULT_SLIDING_WINDOW_TYPE;

        private int slidingWindowSize = DEFAULT_SLIDING_WINDOW_SIZE;

        private int minimumCalls = DEFAULT_MINIMUM_CALLS;

        private float failureRateThreshold = DEFAULT_FAILURE_RATE_THRESHOLD;

        private Duration slowCallDuration = DEFAULT_SLOW_CALL_DURATION;

        private float slowCallRateThreshold = DEFAULT_SLOW_CALL_RATE_THRESHOLD;

        private Duration waitInOpen = DEFAULT_WAIT_IN_OPEN;

        private int halfOpenCalls = DEFAULT_HALF_OPEN_CALLS;

        private Duration maxWaitInHalfOpen = DEFAULT_MAX_WAIT_IN_HALF_OPEN;

        private boolean automaticTransitionToHalfOpen = DEFAULT_AUTOMATIC_TRANSITION_TO_HALF_OPEN;

        private List<Class<? extends Throwable>> recordOn = List.of();

        private List<Class<? extends Throwable>> ignoreOn = List.of();

        private Predicate<@Nullable Object> failOnResult = NO_FAILURE_RESULT;

        private Builder() {
        }

        /**
         * Sets how the sliding window measures its size.
         * @param slidingWindowType the window type
         * @return this builder
         */
        public Builder slidingWindowType(SlidingWindowType slidingWindowType) {
            this.slidingWindowType = Objects.requireNonNull(slidingWindowType, "slidingWindowType");
            return this;
        }

        /**
         * Sets the window size: calls for a count window (at most
         * {@link CircuitBreakerConfig#MAX_COUNT_WINDOW_SIZE}), seconds for a time window
         * (at most {@link CircuitBreakerConfig#MAX_TIME_WINDOW_SECONDS});
         * {@link #build()} checks the maximum against the type.
         * @param slidingWindowSize the size, at least 1
         * @return this builder
         */
        public Builder slidingWindowSize(int slidingWindowSize) {
            require(slidingWindowSize >= 1, "slidingWindowSize must be at least 1, was " + slidingWindowSize);
            this.slidingWindowSize = slidingWindowSize;
            return this;
        }

        /**
         * Sets how many calls the window must hold before its rates can open the breaker.
         * @param minimumCalls the minimum, at least 1
         * @return this builder
         */
        public Builder minimumCalls(int minimumCalls) {
            require(minimumCalls >= 1, "minimumCalls must be at least 1, was " + minimumCalls);
            this.minimumCalls = minimumCalls;
            return this;
        }

        /**
         * Sets the failure rate, in percent, from which the breaker opens.
         * @param failureRateThreshold the threshold, greater than 0 and at most
         * {@link CircuitBreakerConfig#MAX_RATE_THRESHOLD}
         * @return this builder
         */
        public Builder failureRateThreshold(float failureRateThreshold) {
            requirePercent(failureRateThreshold, "failureRateThreshold");
            this.failureRateThreshold = failureRateThreshold;
            return this;
        }

        /**
         * Sets the duration from which a call counts as slow.
         * @param slowCallDuration a positive duration, at most about 292 years
         * @return this builder
         */
        public Builder slowCallDuration(Duration slowCallDuration) {
            this.slowCallDuration = requirePositive(slowCallDuration, "slowCallDuration");
            return this;
        }

        /**
         * Sets the slow-call rate, in percent, from which the breaker opens.
         * @param slowCallRateThreshold the threshold, greater than 0 and at most
         * {@link CircuitBreakerConfig#MAX_RATE_THRESHOLD}
         * @return this builder
         */
        public Builder slowCallRateThreshold(float slowCallRateThreshold) {
            requirePercent(slowCallRateThreshold, "slowCallRateThreshold");
            this.slowCallRateThreshold = slowCallRateThreshold;
            return this;
        }

        /**
         * Sets how long an open breaker rejects calls before it lets probes through.
         * @param waitInOpen a positive duration, at most about 292 years
         * @return this builder
         */
        public Builder waitInOpen(Duration waitInOpen) {
            this.waitInOpen = requirePositive(waitInOpen, "waitInOpen");
            return this;
        }

        /**
         * Sets how many probe calls a half-open breaker lets through and decides on.
         * @param halfOpenCalls the number, from 1 to
         * {@link CircuitBreakerConfig#MAX_HALF_OPEN_CALLS}
         * @return this builder
         */
        public Builder halfOpenCalls(int halfOpenCalls) {
            require(halfOpenCalls >= 1 && halfOpenCalls <= MAX_HALF_OPEN_CALLS,
                    "halfOpenCalls must be between 1 and " + MAX_HALF_OPEN_CALLS + ", was " + halfOpenCalls);
            this.halfOpenCalls = halfOpenCalls;
            return this;
        }

        /**
         * Sets how long a half-open breaker waits for all its probes to report before it
         * opens again, so that a probe that never ends cannot hold the breaker half open.
         * @param maxWaitInHalfOpen a positive duration, at most about 292 years
         * @return this builder
         */
        public Builder maxWaitInHalfOpen(Duration maxWaitInHalfOpen) {
            this.maxWaitInHalfOpen = requirePositive(maxWaitInHalfOpen, "maxWaitInHalfOpen");
            return this;
        }

        /**
         * Sets whether an open breaker moves to half open by itself once the wait in open
         * has passed (and a half-open one back to open after
         * {@link #maxWaitInHalfOpen(Duration)}), on a timer of the breaker's time source,
         * so that its state shows the move without waiting for a call.
         * @param automaticTransitionToHalfOpen {@code true} for timed transitions
         * @return this builder
         */
        public Builder automaticTransitionToHalfOpen(boolean automaticTransitionToHalfOpen) {
            this.automaticTransitionToHalfOpen = automaticTransitionToHalfOpen;
            return this;
        }

        /**
         * Sets the exception types that count as failures; empty means every exception
         * that is not ignored.
         * @param recordOn the types, matched with {@code instanceof}
         * @return this builder
         */
        public Builder recordOn(List<Class<? extends Throwable>> recordOn) {
            this.recordOn = List.copyOf(recordOn);
            return this;
        }

        /**
         * Sets the exception types that count neither as failures nor as successes. They
         * win over {@link #recordOn(List)}.
         * @param ignoreOn the types, matched with {@code instanceof}
         * @return this builder
         */
        public Builder ignoreOn(List<Class<? extends Throwable>> ignoreOn) {
            this.ignoreOn = List.copyOf(ignoreOn);
            return this;
        }

        /**
         * Sets which values a call returns count as failures: the breaker records such a
         * call as failed, though the call itself still returns its value.
         * @param predicate {@code true} for a value that counts as a failure; by default
         * none does
         * @return this builder
         */
        public Builder failOnResult(Predicate<@Nullable Object> predicate) {
            this.failOnResult = Objects.requireNonNull(predicate, "failOnResult");
            return this;
        }

        /**
         * Builds the configuration.
         * @return the configuration
         * @throws IllegalArgumentException if the window size is too large for its type
         */
        public CircuitBreakerConfig build() {
            int max = (this.slidingWindowType == SlidingWindowType.COUNT) ? MAX_COUNT_WINDOW_SIZE
                    : MAX_TIME_WINDOW_SECONDS;
            require(this.slidingWindowSize <= max, "slidingWindowSize must be at most " + max + " for a "
                    + this.slidingWindowType + " window, was " + this.slidingWindowSize);
            return new CircuitBreakerConfig(this);
        }

        private static void require(boolean valid, String message) {
            if (!valid) {
                throw new IllegalArgumentException(message);
            }
        }

        private static void requirePercent(float value, String setting) {
            require(value > 0 && value <= MAX_RATE_THRESHOLD,
                    setting + " must be greater than 0 and at most " + MAX_RATE_THRESHOLD + ", was " + value);
        }

        private static Duration requirePositive(Duration value, String setting) {
            Objects.requireNonNull(value, setting);
            require(!value.isNegative() && !value.isZero() && value.compareTo(MAX_DURATION) <= 0,
                    setting + " must be positive and at most " + MAX_DURATION + ", was " + value);
            return value;
        }

    }

}
