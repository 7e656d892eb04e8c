package dev.resilience.core.time;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A {@link TimeSource} on {@link System#nanoTime()}, {@link Instant#now()} and a
 * {@link ScheduledExecutorService}.
 *
 * <p>
 * The scheduler's thread runs the tasks of {@link #schedule}, which only fire (interrupt
 * a thread, complete a future). It hands the tasks of {@link #scheduleHandOff} to one
 * daemon thread, {@code resilience-timer-handoff}, in the order they fall due: a hand-off
 * that waits for a saturated executor holds up the hand-offs behind it, which would wait
 * for that executor as well, but never a timer, and never more than that one thread.
 */
public final class SystemTimeSource implements TimeSource {

    private static final Executor HAND_OFF = handOffThread();

    private final ScheduledExecutorService scheduler;

    /**
     * Creates a time source that schedules delayed work on the given executor, which the
     * caller owns and shuts down.
     * @param scheduler the executor whose thread fires the timers of {@link #schedule}
     */
    public SystemTimeSource(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
    }

    static SystemTimeSource shared() {
        return SharedHolder.INSTANCE;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Instant now() {
        return Instant.now();
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
        if (!duration.isNegative() && !duration.isZero()) {
            TimeUnit.NANOSECONDS.sleep(Durations.toNanos(duration));
        }
    }

    @Override
    public ScheduledTask schedule(Runnable task, Duration delay) {
        ScheduledFuture<?> future = this.scheduler.schedule(task, nanos(delay), TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public ScheduledTask scheduleHandOff(Runnable task, Duration delay) {
        return schedule(() -> handOff(task), delay);
    }

    private static long nanos(Duration delay) {
        return Math.max(0, Durations.toNanos(delay));
    }

    private static void handOff(Runnable task) {
        try {
            HAND_OFF.execute(task);
        }
        catch (RejectedExecutionException ex) {
            task.run();
        }
    }

    private static Executor handOffThread() {
        return new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), (task) -> {
            Thread thread = new Thread(task, "resilience-timer-handoff");
            thread.setDaemon(true);
            return thread;
        });
    }

    private static final class SharedHolder {

        static final SystemTimeSource INSTANCE = new SystemTimeSource(daemonScheduler());

        private static ScheduledExecutorService daemonScheduler() {
            ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
                Thread thread = new Thread(runnable, "resilience-timer");
                thread.setDaemon(true);
                return thread;
            });
            executor.setRemoveOnCancelPolicy(true);
            return executor;
        }

    }

}
