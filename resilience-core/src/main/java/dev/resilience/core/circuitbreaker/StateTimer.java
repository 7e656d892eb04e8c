package dev.resilience.core.circuitbreaker;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import dev.resilience.core.time.ScheduledTask;
import org.jspecify.annotations.Nullable;

/**
 * The one timer of a timed state. Its task only hands the state's move to the breaker's
 * executor. Cancelling before the timer is started makes the start cancel its task at
 * once, so a state left before its timer was set keeps none.
 */
final class StateTimer {

    private static final System.Logger LOGGER = System.getLogger(CircuitBreaker.class.getName());

    private static final ScheduledTask CANCELLED = () -> false;

    private final AtomicReference<@Nullable ScheduledTask> task = new AtomicReference<>();

    /**
     * Schedules the move on the breaker's time source, unless the state was already left.
     * @param breaker the breaker of the state
     * @param move the state's transition, which does nothing once the state is left
     * @param delayNanos how long from now; zero or less fires at once
     */
    void start(CircuitBreaker breaker, Runnable move, long delayNanos) {
        ScheduledTask scheduled;
        try {
            scheduled = breaker.timeSource()
                .scheduleHandOff(() -> breaker.handOver(move), Duration.ofNanos(Math.max(0, delayNanos)));
        }
        catch (RuntimeException ex) {
            LOGGER.log(Level.WARNING, "Time source of circuit breaker '" + breaker.name()
                    + "' refused a timer; the next call will make its transition", ex);
            return;
        }
        if (!this.task.compareAndSet(null, scheduled)) {
            scheduled.cancel();
        }
    }

    /**
     * Cancels the timer, or the one a later {@link #start} would set.
     */
    void cancel() {
        ScheduledTask scheduled = this.task.getAndSet(CANCELLED);
        if (scheduled != null) {
            scheduled.cancel();
        }
    }

}
