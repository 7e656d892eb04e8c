package dev.resilience.core;

import java.util.concurrent.CompletableFuture;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.bulkhead.BulkheadType;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.ratelimiter.RateLimitedException;
import org.jspecify.annotations.Nullable;

/**
 * The bulkhead stage of a pipeline, the innermost guard: takes a permit of the bulkhead
 * for each attempt and hands it back with the attempt's outcome, so that an asynchronous
 * attempt holds its permit until its stage completes. A synchronous attempt waits for a
 * permit on the caller's thread; an interrupt ends that wait at once with a
 * {@link CallInterruptedException}, and the call sets the thread's interrupt flag again
 * when it returns. An asynchronous attempt waits without a thread: its next step runs
 * when a permit is handed to it or its wait ends.
 *
 * <p>
 * The guards hand every pass back exactly once, so a fixed bulkhead's permit is taken
 * without a {@link Bulkhead.Permit} object ({@link Bulkhead#enter()}, the pass is
 * {@code null}) and the stage uses no duration: a call through it allocates nothing and
 * is not timed for it. An adaptive bulkhead learns from each attempt's duration and
 * outcome, with the {@link Bulkhead.Permit} that says how many calls ran beside it. Holds
 * nothing but its bulkhead.
 */
final class BulkheadStage implements AttemptGuard<Bulkhead.@Nullable Permit> {

    /**
     * The class of the pass, resolved here so that the compiler may inline the stage into
     * the drivers: it inlines no method whose signature names a class that this class's
     * loader has not loaded, and a pipeline of fixed bulkheads never loads it otherwise.
     */
    private static final Class<?> PASS = Bulkhead.Permit.class;

    private final Bulkhead bulkhead;

    private final boolean learns;

    BulkheadStage(Bulkhead bulkhead) {
        this.bulkhead = bulkhead;
        this.learns = bulkhead.config().type() == BulkheadType.ADAPTIVE;
    }

    @Override
    public int order() {
        return BULKHEAD;
    }

    @Override
    public boolean usesDuration() {
        return this.learns;
    }

    @Override
    public Bulkhead.@Nullable Permit admit() {
        try {
            if (this.learns) {
                return this.bulkhead.acquire();
            }
            this.bulkhead.enter();
            return null;
        }
        catch (InterruptedException ex) {
            throw new CallInterruptedException(this.bulkhead.name(), ex);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public CompletableFuture<Bulkhead.@Nullable Permit> admitAsync() {
        if (this.learns) {
            return (CompletableFuture<Bulkhead.@Nullable Permit>) (CompletableFuture<?>) this.bulkhead.acquireAsync();
        }
        return (CompletableFuture<Bulkhead.@Nullable Permit>) (CompletableFuture<?>) this.bulkhead.enterAsync();
    }

    @Override
    public void succeeded(Bulkhead.@Nullable Permit permit, long durationNanos) {
        if (permit == null) {
            this.bulkhead.exit();
        }
        else {
            this.bulkhead.onSuccess(permit, durationNanos);
        }
    }

    /**
     * Hands the permit back with the failure, which an adaptive limit learns from, except
     * a refusal from inside the action (a nested bulkhead, rate limiter or breaker
     * refused at once, no sign of this bulkhead's load) and an interrupt (the caller gave
     * up, as a cancelled asynchronous call does): their permit is released without a
     * sample.
     */
    @Override
    public void failed(Bulkhead.@Nullable Permit permit, long durationNanos, Throwable failure) {
        if (permit == null) {
            this.bulkhead.exit();
        }
        else if (failure instanceof BulkheadFullException || failure instanceof RateLimitedException
                || failure instanceof CallNotPermittedException || failure instanceof InterruptedException
                || failure instanceof CallInterruptedException) {
            this.bulkhead.release(permit);
        }
        else {
            this.bulkhead.onError(permit, durationNanos, failure);
        }
    }

    @Override
    public void abandoned(Bulkhead.@Nullable Permit permit) {
        if (permit == null) {
            this.bulkhead.exit();
        }
        else {
            this.bulkhead.release(permit);
        }
    }

}
