package dev.resilience.core;

import java.time.Duration;
import java.time.Instant;

import dev.resilience.core.time.ScheduledTask;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;

/**
 * A time source that does what a virtual time source does, for tests to change one of its
 * parts.
 */
public class DelegatingTimer implements TimeSource {

    protected final VirtualTimeSource clock;

    public DelegatingTimer(VirtualTimeSource clock) {
        this.clock = clock;
    }

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
        return this.clock.schedule(task, delay);
    }

}
