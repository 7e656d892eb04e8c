package dev.resilience.core.time;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A {@link TimeSource} on {@link System#nanoTime()}, {@link Instant#now()} and a
 * {@link ScheduledExecutorService}.
 */
public final class SystemTimeSource implements TimeSource {

    private final ScheduledExecutorService scheduler;

    /**
     * Creates a time source that schedules delayed work on the given executor, which the
     * caller owns and shuts down.
     * @param scheduler the executor for {@link #schedule}
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
        ScheduledFuture<?> future = this.scheduler.schedule(task, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
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
