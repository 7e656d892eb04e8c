package dev.resilience.core;

import java.time.Duration;

import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.Durations;
import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

/**
 * The attempt-timeout stage of a pipeline: the time each attempt may take, the shorter of
 * the retry policy's attempt timeout and the pipeline's time limit, shortened by the
 * call's deadline. How an overrun attempt is stopped is the driver's part: the
 * synchronous one interrupts the thread, the asynchronous one cancels the stage.
 */
final class AttemptTimeoutStage {

    /** The limit of an attempt that is not limited. */
    static final long UNLIMITED = 0;

    private final String name;

    private final TimeSource time;

    private final long timeoutNanos;

    /** Whether calls have a deadline, which shortens each attempt's limit. */
    private final boolean deadlines;

    AttemptTimeoutStage(String name, TimeSource time, @Nullable RetryPolicy retry, @Nullable Duration timeLimit) {
        this.name = name;
        this.time = time;
        Duration timeout = (retry != null) ? retry.attemptTimeout() : null;
        this.timeoutNanos = Math.min(nanos(timeout), nanos(timeLimit));
        this.deadlines = retry != null && retry.maxDuration() != null;
    }

    private static long nanos(@Nullable Duration timeout) {
        return (timeout != null) ? Math.min(Durations.toNanos(timeout), Long.MAX_VALUE - 1) : Long.MAX_VALUE;
    }

    /** Returns whether attempts have a timeout of their own. */
    boolean present() {
        return this.timeoutNanos != Long.MAX_VALUE;
    }

    /**
     * Returns the time the next attempt may take: its timeout, or the time left before
     * the call's deadline (at least a nanosecond) when that is shorter.
     * @param deadlineNanos the call's deadline ({@link RetryStage#enter}), ignored when
     * calls have none
     * @return the limit in nanoseconds, or {@link #UNLIMITED}
     */
    long limitNanos(long deadlineNanos) {
        long limit = this.timeoutNanos;
        if (this.deadlines) {
            limit = Math.min(limit, Math.max(1, deadlineNanos - this.time.nanoTime()));
        }
        return (limit == Long.MAX_VALUE) ? UNLIMITED : limit;
    }

    /**
     * Creates the error of an attempt that took its whole limit.
     * @param limitNanos the limit
     * @return the error
     */
    AttemptTimeoutException timeout(long limitNanos) {
        return new AttemptTimeoutException(this.name, Duration.ofNanos(limitNanos));
    }

}
