package dev.resilience.core.retry;

/**
 * Told of every retry of a {@link RetryPolicy}, before the wait that precedes it.
 *
 * <p>
 * Called on the thread that runs the call; it should be quick. An exception it throws is
 * caught and ignored, so it cannot change the outcome of the call.
 */
@FunctionalInterface
public interface RetryListener {

    /**
     * Receives a retry about to happen.
     * @param event the failed attempt and the delay before the next one
     */
    void onRetry(RetryEvent event);

}
