package dev.resilience.core.time;

/**
 * A task handed to {@link TimeSource#schedule}, which may still be cancelled.
 */
@FunctionalInterface
public interface ScheduledTask {

    /**
     * Cancels the task if it has not started yet.
     * @return {@code true} if this call prevented the task from running
     */
    boolean cancel();

}
