package dev.resilience.core;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.RejectedExecutionException;

import dev.resilience.core.time.ScheduledTask;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;

/**
 * A time source whose timer no longer takes tasks, as after a shutdown; its clock and
 * sleeps are those of a virtual time source.
 *
 * @param clock the virtual time source it reads
 */
record RejectingTimer(VirtualTimeSource clock) implements TimeSource {

    @Override
    public long nanoTime() {
        return this.clock.nanoTime();
    }

    @Override
    public Instant now() {
        return this.clock.now();
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
        this.clock.sleep(duration);
    }

    @Override
    public ScheduledTask schedule(Runnable task, Duration delay) {
        throw new RejectedExecutionException("timer shut down");
    }

}
