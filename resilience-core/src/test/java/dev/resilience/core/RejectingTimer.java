package dev.resilience.core;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

import dev.resilience.core.time.ScheduledTask;
import dev.resilience.core.time.VirtualTimeSource;

/**
 * A time source whose timer no longer takes tasks, as after a shutdown; its clock and
 * sleeps are those of a virtual time source.
 */
final class RejectingTimer extends DelegatingTimer {

    RejectingTimer(VirtualTimeSource clock) {
        super(clock);
    }

    @Override
    public ScheduledTask schedule(Runnable task, Duration delay) {
        throw new RejectedExecutionException("timer shut down");
    }

}
