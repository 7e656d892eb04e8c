package dev.resilience.autoconfigure;

import java.time.Duration;
import java.util.List;

import dev.resilience.core.retry.Jitter;
import org.jspecify.annotations.Nullable;

/**
 * The settings of retries, used both for {@code resilience.retry.defaults} and for each
 * of {@code resilience.retry.instances}. A setting left {@code null} is unset: it falls
 * back to the annotation, then to the defaults, then to the built-in value of the core.
 */
public class RetrySettings {

    /**
     * Maximum number of attempts of a call, the first included; 1 means no retry.
     */
    private @Nullable Integer maxAttempts;

    /**
     * Wait before the first retry; later waits grow by the multiplier.
     */
    private @Nullable Duration delay;

    /**
     * Exponential factor applied to the wait at each retry; 1.0 keeps the wait fixed.
     */
    private @Nullable Double multiplier;

    /**
     * Longest wait between two attempts.
     */
    private @Nullable Duration maxDelay;

    /**
     * How waits are spread so that failing clients do not retry together.
     */
    private @Nullable Jitter jitter;

    /**
     * Exception classes to retry, subclasses included; empty means every exception not in
     * abort-on.
     */
    private @Nullable List<Class<? extends Throwable>> retryOn;

    /**
     * Exception classes never to retry, subclasses included; they win over retry-on.
     */
    private @Nullable List<Class<? extends Throwable>> abortOn;

    /**
     * Timeout of each attempt; unset means no per-attempt timeout.
     */
    private @Nullable Duration attemptTimeout;

    /**
     * Deadline of the whole call, all attempts and waits included; unset means none.
     */
    private @Nullable Duration maxDuration;

    /**
     * Retry budget, which caps retries relative to calls.
     */
    private final Budget budget = new Budget();

    /**
     * Returns the maximum number of attempts.
     * @return the attempts, or {@code null} if unset
     */
    public @Nullable Integer getMaxAttempts() {
        return this.maxAttempts;
    }

    /**
     * Sets the maximum number of attempts, the first included.
     * @param maxAttempts the attempts, or {@code null} to unset
     */
    public void setMaxAttempts(@Nullable Integer maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    /**
     * Returns the first wait.
     * @return the delay, or {@code null} if unset
     */
    public @Nullable Duration getDelay() {
        return this.delay;
    }

    /**
     * Sets the first wait.
     * @param delay the delay, or {@code null} to unset
     */
    public void setDelay(@Nullable Duration delay) {
        this.delay = delay;
    }

    /**
     * Returns the exponential factor.
     * @return the multiplier, or {@code null} if unset
     */
    public @Nullable Double getMultiplier() {
        return this.multiplier;
    }

    /**
     * Sets the exponential factor.
     * @param multiplier the multiplier, or {@code null} to unset
     */
    public void setMultiplier(@Nullable Double multiplier) {
        this.multiplier = multiplier;
    }

    /**
     * Returns the longest wait.
     * @return the maximum delay, or {@code null} if unset
     */
    public @Nullable Duration getMaxDelay() {
        return this.maxDelay;
    }

    /**
     * Sets the longest wait.
     * @param maxDelay the maximum delay, or {@code null} to unset
     */
    public void setMaxDelay(@Nullable Duration maxDelay) {
        this.maxDelay = maxDelay;
    }

    /**
     * Returns the jitter mode.
     * @return the jitter, or {@code null} if unset
     */
    public @Nullable Jitter getJitter() {
        return this.jitter;
    }

    /**
     * Sets the jitter mode.
     * @param jitter the jitter, or {@code null} to unset
     */
    public void setJitter(@Nullable Jitter jitter) {
        this.jitter = jitter;
    }

    /**
     * Returns the exception classes to retry.
     * @return the classes, or {@code null} if unset
     */
    public @Nullable List<Class<? extends Throwable>> getRetryOn() {
        return this.retryOn;
    }

    /**
     * Sets the exception classes to retry.
     * @param retryOn the classes, or {@code null} to unset
     */
    public void setRetryOn(@Nullable List<Class<? extends Throwable>> retryOn) {
        this.retryOn = retryOn;
    }

    /**
     * Returns the exception classes never to retry.
     * @return the classes, or {@code null} if unset
     */
    public @Nullable List<Class<? extends Throwable>> getAbortOn() {
        return this.abortOn;
    }

    /**
     * Sets the exception classes never to retry.
     * @param abortOn the classes, or {@code null} to unset
     */
    public void setAbortOn(@Nullable List<Class<? extends Throwable>> abortOn) {
        this.abortOn = abortOn;
    }

    /**
     * Returns the timeout of each attempt.
     * @return the timeout, or {@code null} if unset
     */
    public @Nullable Duration getAttemptTimeout() {
        return this.attemptTimeout;
    }

    /**
     * Sets the timeout of each attempt.
     * @param attemptTimeout the timeout, or {@code null} to unset
     */
    public void setAttemptTimeout(@Nullable Duration attemptTimeout) {
        this.attemptTimeout = attemptTimeout;
    }

    /**
     * Returns the deadline of the whole call.
     * @return the deadline, or {@code null} if unset
     */
    public @Nullable Duration getMaxDuration() {
        return this.maxDuration;
    }

    /**
     * Sets the deadline of the whole call.
     * @param maxDuration the deadline, or {@code null} to unset
     */
    public void setMaxDuration(@Nullable Duration maxDuration) {
        this.maxDuration = maxDuration;
    }

    /**
     * Returns the retry budget settings.
     * @return the budget settings, never {@code null}
     */
    public Budget getBudget() {
        return this.budget;
    }

    /**
     * The settings of the retry budget, which caps retries relative to calls. Each
     * setting left {@code null} is unset.
     */
    public static class Budget {

        /**
         * Whether retries must be granted by a budget shared by all calls of the
         * instance.
         */
        private @Nullable Boolean enabled;

        /**
         * Retries allowed per call in the window, from 0 to 1000; 0.1 means one retry per
         * ten calls.
         */
        private @Nullable Double ratio;

        /**
         * Retries per second always allowed, whatever the number of calls. They accrue
         * continuously; at most one second's worth is granted at once.
         */
        private @Nullable Integer minRetriesPerSecond;

        /**
         * How far back calls and retries count, from 1s to 1h.
         */
        private @Nullable Duration window;

        /**
         * Returns whether the budget is enabled.
         * @return the flag, or {@code null} if unset
         */
        public @Nullable Boolean getEnabled() {
            return this.enabled;
        }

        /**
         * Sets whether the budget is enabled.
         * @param enabled the flag, or {@code null} to unset
         */
        public void setEnabled(@Nullable Boolean enabled) {
            this.enabled = enabled;
        }

        /**
         * Returns the ratio of retries to calls.
         * @return the ratio, or {@code null} if unset
         */
        public @Nullable Double getRatio() {
            return this.ratio;
        }

        /**
         * Sets the ratio of retries to calls.
         * @param ratio the ratio, or {@code null} to unset
         */
        public void setRatio(@Nullable Double ratio) {
            this.ratio = ratio;
        }

        /**
         * Returns the retries per second always allowed.
         * @return the floor, or {@code null} if unset
         */
        public @Nullable Integer getMinRetriesPerSecond() {
            return this.minRetriesPerSecond;
        }

        /**
         * Sets the retries per second always allowed.
         * @param minRetriesPerSecond the floor, or {@code null} to unset
         */
        public void setMinRetriesPerSecond(@Nullable Integer minRetriesPerSecond) {
            this.minRetriesPerSecond = minRetriesPerSecond;
        }

        /**
         * Returns the window.
         * @return the window, or {@code null} if unset
         */
        public @Nullable Duration getWindow() {
            return this.window;
        }

        /**
         * Sets the window.
         * @param window the window, or {@code null} to unset
         */
        public void setWindow(@Nullable Duration window) {
            this.window = window;
        }

    }

}
