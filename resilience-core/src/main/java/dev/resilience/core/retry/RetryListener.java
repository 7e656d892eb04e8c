package dev.resilience.core.retry;

/**
 * Told of every retry of a {@link RetryPolicy}, before the wait that precedes it.
 *
 * <p>
 * Called on the thread that runs the call; it should be quick. An exception it throws is
 * caught and ignored, so it cannot change the outcome of the call.
 *
 * @deprecated since 0.1.0, for removal: implement
 * {@link dev.resilience.core.ExecutionListener#onRetry(String, RetryEvent)} and add the
 * listener to the pipeline with
 * {@link dev.resilience.core.ResiliencePipeline.Builder#listener}; it receives the same
 * {@link RetryEvent} at the same moment, and sees the call's other steps and its outcome
 * too
 */
@FunctionalInterface
@Deprecated(since = "0.1.0", forRemoval = true)
public interface RetryListener {

    /**
     * Receives a retry about to happen.
     * @param event the failed attempt and the delay before the next one
     */
    void onRetry(RetryEvent event);

}
