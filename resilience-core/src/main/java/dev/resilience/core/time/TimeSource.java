package dev.resilience.core.time;

import java.time.Duration;
import java.time.Instant;

/**
 * Where the engine reads time, sleeps between attempts and schedules delayed work.
 *
 * <p>
 * Every policy takes its time from a {@code TimeSource}, so tests and simulations can run
 * on a {@link VirtualTimeSource} instead of the wall clock. Implementations are
 * thread-safe.
 */
public interface TimeSource {

    /**
     * Returns a monotonic reading in nanoseconds, for measuring durations only.
     * @return the current reading; only differences between readings are meaningful
     */
    long nanoTime();

    /**
     * Returns the current wall-clock instant, for timestamps that leave the process (dead
     * letters, idempotency expiry, events).
     * @return the current instant
     */
    Instant now();

    /**
     * Blocks the calling thread for the given duration.
     * @param duration how long to sleep; zero or negative returns at once
     * @throws InterruptedException if the thread is interrupted while sleeping
     */
    void sleep(Duration duration) throws InterruptedException;

    /**
     * Runs a task once after a delay, without blocking the caller.
     * @param task the task to run; timers are shared by every call, so a task only fires:
     * it hands any real work to an executor
     * @throws java.util.concurrent.RejectedExecutionException if the timer no longer
     * accepts tasks
     * @param delay how long to wait before running it
     * @return a handle that cancels the task if it has not started
     */
    ScheduledTask schedule(Runnable task, Duration delay);

    /**
     * Runs a task once after a delay on a thread that may block, never the timer's: for a
     * task that hands work to an executor, whose {@code execute} may wait (an executor at
     * its concurrency limit, say), so that it never holds up other timers. By default the
     * task runs as {@link #schedule} runs it.
     * @param task the task to run
     * @param delay how long to wait before running it
     * @return a handle that cancels the task if it has not started
     * @throws java.util.concurrent.RejectedExecutionException if the timer no longer
     * accepts tasks
     */
    default ScheduledTask scheduleHandOff(Runnable task, Duration delay) {
        return schedule(task, delay);
    }

    /**
     * Returns the shared time source backed by the system clock and one daemon timer
     * thread, {@code resilience-timer}.
     * @return the system time source
     */
    static TimeSource system() {
        return SystemTimeSource.shared();
    }

}
