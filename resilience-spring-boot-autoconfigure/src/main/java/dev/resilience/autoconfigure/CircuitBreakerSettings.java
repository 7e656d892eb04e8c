package dev.resilience.autoconfigure;

import java.time.Duration;
import java.util.List;

import dev.resilience.core.circuitbreaker.SlidingWindowType;
import org.jspecify.annotations.Nullable;

/**
 * The settings of circuit breakers, used both for
 * {@code resilience.circuit-breaker.defaults} and for each of
 * {@code resilience.circuit-breaker.instances}. A setting left {@code null} is unset: it
 * falls back to the annotation (exception lists only), then to the defaults, then to the
 * built-in value of the core.
 */
public class CircuitBreakerSettings {

    /**
     * How the sliding window measures its size: the last N calls, or the calls of the
     * last N seconds.
     */
    private @Nullable SlidingWindowType slidingWindowType;

    /**
     * Size of the sliding window: calls (at most 1,000,000) for a count window, seconds
     * (at most 3600) for a time window.
     */
    private @Nullable Integer slidingWindowSize;

    /**
     * Calls the window must hold before its rates can open the breaker.
     */
    private @Nullable Integer minimumCalls;

    /**
     * Failure rate, in percent, from which the breaker opens; in (0, 100].
     */
    private @Nullable Float failureRateThreshold;

    /**
     * Duration from which a call counts as slow.
     */
    private @Nullable Duration slowCallDuration;

    /**
     * Slow-call rate, in percent, from which the breaker opens; in (0, 100].
     */
    private @Nullable Float slowCallRateThreshold;

    /**
     * How long an open breaker rejects calls before it lets probes through.
     */
    private @Nullable Duration waitInOpen;

    /**
     * Probe calls a half-open breaker lets through, all needed to decide whether to
     * close.
     */
    private @Nullable Integer halfOpenCalls;

    /**
     * Longest time a half-open breaker waits for all its probes to report. After it the
     * breaker opens again for a fresh wait-in-open and the late outcomes of those probes
     * are ignored, so a probe that never ends cannot hold the breaker half open.
     */
    private @Nullable Duration maxWaitInHalfOpen;

    /**
     * Whether an open breaker moves to half open by itself once wait-in-open has passed
     * (and a half-open one back to open once max-wait-in-half-open has), so that gauges,
     * health and the endpoint show it without waiting for a call.
     */
    private @Nullable Boolean automaticTransitionToHalfOpen;

    /**
     * Exception classes recorded as failures; empty means every exception not in
     * ignore-on.
     */
    private @Nullable List<Class<? extends Throwable>> recordOn;

    /**
     * Exception classes counted neither as failures nor as successes.
     */
    private @Nullable List<Class<? extends Throwable>> ignoreOn;

    /**
     * Returns the sliding window type.
     * @return the type, or {@code null} if unset
     */
    public @Nullable SlidingWindowType getSlidingWindowType() {
        return this.slidingWindowType;
    }

    /**
     * Sets the sliding window type.
     * @param slidingWindowType the type, or {@code null} to unset
     */
    public void setSlidingWindowType(@Nullable SlidingWindowType slidingWindowType) {
        this.slidingWindowType = slidingWindowType;
    }

    /**
     * Returns the sliding window size.
     * @return the size, or {@code null} if unset
     */
    public @Nullable Integer getSlidingWindowSize() {
        return this.slidingWindowSize;
    }

    /**
     * Sets the sliding window size.
     * @param slidingWindowSize the size, or {@code null} to unset
     */
    public void setSlidingWindowSize(@Nullable Integer slidingWindowSize) {
        this.slidingWindowSize = slidingWindowSize;
    }

    /**
     * Returns the minimum number of calls.
     * @return the minimum, or {@code null} if unset
     */
    public @Nullable Integer getMinimumCalls() {
        return this.minimumCalls;
    }

    /**
     * Sets the minimum number of calls.
     * @param minimumCalls the minimum, or {@code null} to unset
     */
    public void setMinimumCalls(@Nullable Integer minimumCalls) {
        this.minimumCalls = minimumCalls;
    }

    /**
     * Returns the failure rate threshold.
     * @return the threshold in percent, or {@code null} if unset
     */
    public @Nullable Float getFailureRateThreshold() {
        return this.failureRateThreshold;
    }

    /**
     * Sets the failure rate threshold.
     * @param failureRateThreshold the threshold in percent, or {@code null} to unset
     */
    public void setFailureRateThreshold(@Nullable Float failureRateThreshold) {
        this.failureRateThreshold = failureRateThreshold;
    }

    /**
     * Returns the slow-call duration.
     * @return the duration, or {@code null} if unset
     */
    public @Nullable Duration getSlowCallDuration() {
        return this.slowCallDuration;
    }

    /**
     * Sets the slow-call duration.
     * @param slowCallDuration the duration, or {@code null} to unset
     */
    public void setSlowCallDuration(@Nullable Duration slowCallDuration) {
        this.slowCallDuration = slowCallDuration;
    }

    /**
     * Returns the slow-call rate threshold.
     * @return the threshold in percent, or {@code null} if unset
     */
    public @Nullable Float getSlowCallRateThreshold() {
        return this.slowCallRateThreshold;
    }

    /**
     * Sets the slow-call rate threshold.
     * @param slowCallRateThreshold the threshold in percent, or {@code null} to unset
     */
    public void setSlowCallRateThreshold(@Nullable Float slowCallRateThreshold) {
        this.slowCallRateThreshold = slowCallRateThreshold;
    }

    /**
     * Returns the wait in open.
     * @return the wait, or {@code null} if unset
     */
    public @Nullable Duration getWaitInOpen() {
        return this.waitInOpen;
    }

    /**
     * Sets the wait in open.
     * @param waitInOpen the wait, or {@code null} to unset
     */
    public void setWaitInOpen(@Nullable Duration waitInOpen) {
        this.waitInOpen = waitInOpen;
    }

    /**
     * Returns the number of half-open probe calls.
     * @return the number, or {@code null} if unset
     */
    public @Nullable Integer getHalfOpenCalls() {
        return this.halfOpenCalls;
    }

    /**
     * Sets the number of half-open probe calls.
     * @param halfOpenCalls the number, or {@code null} to unset
     */
    public void setHalfOpenCalls(@Nullable Integer halfOpenCalls) {
        this.halfOpenCalls = halfOpenCalls;
    }

    /**
     * Returns the longest wait in half open.
     * @return the wait, or {@code null} if unset
     */
    public @Nullable Duration getMaxWaitInHalfOpen() {
        return this.maxWaitInHalfOpen;
    }

    /**
     * Sets the longest wait in half open.
     * @param maxWaitInHalfOpen the wait, or {@code null} to unset
     */
    public void setMaxWaitInHalfOpen(@Nullable Duration maxWaitInHalfOpen) {
        this.maxWaitInHalfOpen = maxWaitInHalfOpen;
    }

    /**
     * Returns whether the breaker moves to half open by itself.
     * @return the choice, or {@code null} if unset
     */
    public @Nullable Boolean getAutomaticTransitionToHalfOpen() {
        return this.automaticTransitionToHalfOpen;
    }

    /**
     * Sets whether the breaker moves to half open by itself.
     * @param automaticTransitionToHalfOpen the choice, or {@code null} to unset
     */
    public void setAutomaticTransitionToHalfOpen(@Nullable Boolean automaticTransitionToHalfOpen) {
        this.automaticTransitionToHalfOpen = automaticTransitionToHalfOpen;
    }

    /**
     * Returns the exception classes recorded as failures.
     * @return the classes, or {@code null} if unset
     */
    public @Nullable List<Class<? extends Throwable>> getRecordOn() {
        return this.recordOn;
    }

    /**
     * Sets the exception classes recorded as failures.
     * @param recordOn the classes, or {@code null} to unset
     */
    public void setRecordOn(@Nullable List<Class<? extends Throwable>> recordOn) {
        this.recordOn = recordOn;
    }

    /**
     * Returns the exception classes ignored.
     * @return the classes, or {@code null} if unset
     */
    public @Nullable List<Class<? extends Throwable>> getIgnoreOn() {
        return this.ignoreOn;
    }

    /**
     * Sets the exception classes ignored.
     * @param ignoreOn the classes, or {@code null} to unset
     */
    public void setIgnoreOn(@Nullable List<Class<? extends Throwable>> ignoreOn) {
        this.ignoreOn = ignoreOn;
    }

}
