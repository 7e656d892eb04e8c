package dev.resilience.core;

import java.util.concurrent.CompletableFuture;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadType;

/**
 * The bulkhead stage of a pipeline, the innermost guard: takes a permit of the bulkhead
 * for each attempt and hands it back with the attempt's outcome, so that an asynchronous
 * attempt holds its permit until its stage completes. A synchronous attempt waits for a
 * permit on the caller's thread; an interrupt ends that wait at once with a
 * {@link CallInterruptedException}, and the call sets the thread's interrupt flag again
 * when it returns. An asynchronous attempt waits without a thread: its next step runs
 * when a permit is handed to it or its wait ends. A fixed bulkhead uses no duration, so
 * an attempt is not timed for it; an adaptive one learns from each attempt's duration.
 * Holds nothing but its bulkhead.
 */
final class BulkheadStage implements AttemptGuard<Bulkhead.Permit> {

    private final Bulkhead bulkhead;

    BulkheadStage(Bulkhead bulkhead) {
        this.bulkhead = bulkhead;
    }

    @Override
    public int order() {
        return BULKHEAD;
    }

    @Override
    public boolean usesDuration() {
        return this.bulkhead.config().type() == BulkheadType.ADAPTIVE;
    }

    @Override
    public Bulkhead.Permit admit() {
        try {
            return this.bulkhead.acquire();
        }
        catch (InterruptedException ex) {
            throw new CallInterruptedException(this.bulkhead.name(), ex);
        }
    }

    @Override
    public CompletableFuture<Bulkhead.Permit> admitAsync() {
        return this.bulkhead.acquireAsync();
    }

    @Override
    public void succeeded(Bulkhead.Permit permit, long durationNanos) {
        this.bulkhead.onSuccess(permit, durationNanos);
    }

    @Override
    public void failed(Bulkhead.Permit permit, long durationNanos, Throwable failure) {
        this.bulkhead.onError(permit, durationNanos, failure);
    }

    @Override
    public void abandoned(Bulkhead.Permit permit) {
        this.bulkhead.release(permit);
    }

}
