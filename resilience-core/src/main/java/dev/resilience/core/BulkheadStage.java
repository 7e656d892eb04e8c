package dev.resilience.core;

import java.util.concurrent.CompletableFuture;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.ratelimiter.RateLimitedException;

/**
 * The bulkhead stage of a pipeline, the innermost guard: takes a permit of the bulkhead
 * for each attempt and hands it back with the attempt's outcome, so that an asynchronous
 * attempt holds its permit until its stage completes. A synchronous attempt waits for a
 * permit on the caller's thread; an interrupt ends that wait at once with a
 * {@link CallInterruptedException}, and the call sets the thread's interrupt flag again
 * when it returns. An asynchronous attempt waits without a thread: its next step runs
 * when a permit is handed to it or its wait ends. Holds nothing but its bulkhead.
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

    /**
     * Hands the permit back with the failure, which an adaptive limit learns from, except
     * a refusal from inside the action (a nested bulkhead, rate limiter or breaker
     * refused at once, no sign of this bulkhead's load) and an interrupt (the caller gave
     * up, as a cancelled asynchronous call does): their permit is released without a
     * sample.
     */
    @Override
    public void failed(Bulkhead.Permit permit, long durationNanos, Throwable failure) {
        if (failure instanceof BulkheadFullException || failure instanceof RateLimitedException
                || failure instanceof CallNotPermittedException || failure instanceof InterruptedException
                || failure instanceof CallInterruptedException) {
            this.bulkhead.release(permit);
            return;
        }
        this.bulkhead.onError(permit, durationNanos, failure);
    }

    @Override
    public void abandoned(Bulkhead.Permit permit) {
        this.bulkhead.release(permit);
    }

}
