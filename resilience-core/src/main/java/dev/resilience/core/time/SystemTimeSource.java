package dev.resilience.core.time;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link TimeSource} on {@link System#nanoTime()}, {@link Instant#now()} and a
 * {@link ScheduledExecutorService}.
 *
 * <p>The scheduler's thread only fires timers: it hands each due task to a pool of daemon
 * threads ({@code resilience-timer-dispatch-<n>}), so a task that blocks, handing its work to
 * an executor that is saturated, say, never holds up the timers of other calls.
 */
public final class SystemTimeSource implements TimeSource {

    private static final Executor DISPATCH = dispatchPool();

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
            TimeUnit.NANOSECONDS.sleep(duration.toNanos());
        }
    }

    @Override
    public ScheduledTask schedule(Runnable task, Duration delay) {
        long nanos = (delay.getSeconds() >= Long.MAX_VALUE / 1_000_000_000L) ? Long.MAX_VALUE : delay.toNanos();
        ScheduledFuture<?> future = this.scheduler.schedule(() -> dispatch(task), Math.max(0, nanos),
                TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    private static void dispatch(Runnable task) {
        try {
            DISPATCH.execute(task);
        }
        catch (RejectedExecutionException ex) {
            task.run();
        }
    }

    private static Executor dispatchPool() {
        AtomicInteger threads = new AtomicInteger();
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), (task) -> {
            Thread thread = new Thread(task, "resilience-timer-dispatch-" + threads.incrementAndGet());
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
