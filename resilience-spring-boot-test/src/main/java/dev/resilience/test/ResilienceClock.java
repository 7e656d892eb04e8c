package dev.resilience.test;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.resilience.core.time.VirtualTimeSource;

/**
 * The virtual clock of a test's application context, which
 * {@link AutoConfigureResilienceTest} makes the engine's time source: inject it and move
 * the time by hand.
 *
 * <p>
 * What moves by itself and what waits for the test:
 * <ul>
 * <li>A synchronous call's sleeps (retry backoff, a rate limiter's wait) advance the
 * clock by their length and return at once: a call that retries with minutes of backoff
 * ends at once, {@link #elapsed()} later by those minutes.
 * <li>Everything the engine schedules on a timer waits until the clock passes its time: a
 * breaker's automatic move from OPEN to HALF_OPEN, the backoff and delayed steps of an
 * asynchronous call ({@code CompletableFuture}, {@code Mono}, {@code Flux}), an attempt
 * timeout, a bulkhead's longest wait, a hedge's delay. Call {@link #advance(Duration)},
 * or {@link #await(CompletionStage)} for an asynchronous call, which advances from timer
 * to timer until it completes, letting a step on another thread run for
 * {@link #QUIET_PERIOD} before each move; a {@code Mono} gives its stage with
 * {@code toFuture()}. The timers run on the thread that advances the clock.
 * <li>A breaker without automatic transitions leaves OPEN on the first call after its
 * wait in open: {@code advance(waitInOpen)}, then call.
 * </ul>
 * A method that itself blocks on the wall clock is not interrupted by an attempt timeout
 * until the clock is advanced, from another thread since the caller's is blocked. Virtual
 * time never goes back, and a reset does not move it.
 */
public final class ResilienceClock {

    /**
     * How long, by the wall clock, {@link #await(CompletionStage)} waits for a call that
     * has no timer left to advance to: 10 seconds.
     */
    public static final Duration DEFAULT_AWAIT_TIMEOUT = Duration.ofSeconds(10);

    /**
     * How long, by the wall clock, {@link #await(CompletionStage)} lets a call run before
     * each move of the clock to its next timer: 50 milliseconds. A step running on
     * another thread (an attempt on an executor, a {@code WebClient} exchange) that ends
     * within it ends the call before the timers behind it (its attempt timeout, a
     * bulkhead's longest wait) fire.
     */
    public static final Duration QUIET_PERIOD = Duration.ofMillis(50);

    private final VirtualTimeSource timeSource;

    /**
     * Creates the clock over the engine's time source.
     * @param timeSource the virtual time source of the application context
     */
    public ResilienceClock(VirtualTimeSource timeSource) {
        this.timeSource = Objects.requireNonNull(timeSource, "timeSource");
    }

    /**
     * Returns the time source the engine reads.
     * @return the virtual time source
     */
    public VirtualTimeSource timeSource() {
        return this.timeSource;
    }

    /**
     * Moves the time forward, running on this thread every timer that falls due on the
     * way, in order.
     * @param duration how far to move; not negative
     * @throws IllegalArgumentException if the duration is negative
     */
    public void advance(Duration duration) {
        this.timeSource.advance(duration);
    }

    /**
     * Returns the virtual time elapsed since the context started.
     * @return the elapsed virtual time
     */
    public Duration elapsed() {
        return this.timeSource.elapsed();
    }

    /**
     * Returns the current virtual instant.
     * @return the instant
     */
    public Instant now() {
        return this.timeSource.now();
    }

    /**
     * Waits for an asynchronous call, advancing the clock from one pending timer to the
     * next until the call completes, and returns its value; waits up to
     * {@link #DEFAULT_AWAIT_TIMEOUT} of wall time in all.
     * @param <T> the type of the value
     * @param stage the call's stage
     * @return the call's value
     * @throws java.util.concurrent.CompletionException if the call failed, with its error
     * as the cause
     * @throws IllegalStateException if the call has not completed within the wall-clock
     * bound
     * @see #await(CompletionStage, Duration)
     */
    public <T> T await(CompletionStage<T> stage) {
        return await(stage, DEFAULT_AWAIT_TIMEOUT);
    }

    /**
     * Waits for an asynchronous call, advancing the clock from one pending timer to the
     * next until the call completes, and returns its value. Before each move, it waits
     * {@link #QUIET_PERIOD} of wall time for the call, so that a step running on another
     * thread ends before the clock passes the timers behind it; a call still running then
     * is taken to wait for its next timer. Every timer that falls due before the call
     * completes runs, in order, whoever scheduled it; while no timer is pending, it keeps
     * waiting for the call by the wall clock.
     * @param <T> the type of the value
     * @param stage the call's stage
     * @param wallTimeout how long to wait by the wall clock in all
     * @return the call's value
     * @throws java.util.concurrent.CompletionException if the call failed, with its error
     * as the cause
     * @throws IllegalStateException if the call has not completed within the wall-clock
     * bound
     */
    public <T> T await(CompletionStage<T> stage, Duration wallTimeout) {
        CompletableFuture<T> future = stage.toCompletableFuture();
        long deadline = System.nanoTime() + wallTimeout.toNanos();
        while (!future.isDone()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new IllegalStateException("The call did not complete within " + wallTimeout
                        + " of wall time; the virtual clock stands at " + elapsed() + " with "
                        + this.timeSource.pendingTasks() + " timer(s) pending");
            }
            waitFor(future, Math.min(left, QUIET_PERIOD.toNanos()));
            if (!future.isDone()) {
                this.timeSource.advanceToNextTask();
            }
        }
        return future.join();
    }

    private static void waitFor(CompletableFuture<?> future, long nanos) {
        try {
            future.get(nanos, TimeUnit.NANOSECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the call", ex);
        }
        catch (ExecutionException | TimeoutException ex) {
            // done with an error, or not yet: the loop decides
        }
    }

}
