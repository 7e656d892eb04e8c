package dev.resilience.core;

import java.util.concurrent.CompletableFuture;

import dev.resilience.core.ratelimiter.RateLimitedException;
import dev.resilience.core.ratelimiter.RateLimiter;
import org.jspecify.annotations.Nullable;

/**
 * The rate limiter stage of a pipeline, the outermost guard: takes a permit for each
 * attempt, or refuses it with a {@link RateLimitedException} carrying the exact wait a
 * permit needs, when that is longer than the limiter's timeout. Within the timeout, a
 * synchronous attempt waits for its reserved permit on its own thread, and an
 * interruption of that wait ends the call with a {@link CallInterruptedException}; an
 * asynchronous attempt waits without a thread, its next step started on the executor when
 * the timer completes its reservation, and a cancelled call gives the reservation up. A
 * permit is never given back on the attempt's outcome, nor when a later guard refuses the
 * attempt: the limiter limits a rate, not a concurrency, and the attempt did arrive. It
 * uses no duration, so an attempt is not timed for it. Holds nothing but its limiter.
 */
final class RateLimiterStage implements AttemptGuard<@Nullable Void> {

    /**
     * The class of the pass, resolved here so that the compiler may inline the stage into
     * the drivers: it inlines no method whose signature names a class that this class's
     * loader has not loaded, and nothing else may make that loader load {@code Void}.
     */
    private static final Class<?> PASS = Void.class;

    private final RateLimiter limiter;

    RateLimiterStage(RateLimiter limiter) {
        this.limiter = limiter;
    }

    @Override
    public int order() {
        return RATE_LIMITER;
    }

    @Override
    public boolean usesDuration() {
        return false;
    }

    @Override
    public @Nullable Void admit() {
        try {
            this.limiter.acquirePermission();
        }
        catch (InterruptedException ex) {
            throw new CallInterruptedException(this.limiter.name(), ex);
        }
        return null;
    }

    @Override
    public CompletableFuture<@Nullable Void> admitAsync() {
        return this.limiter.acquireAsync();
    }

    @Override
    public void succeeded(@Nullable Void pass, long durationNanos) {
    }

    @Override
    public void failed(@Nullable Void pass, long durationNanos, Throwable failure) {
    }

    @Override
    public void abandoned(@Nullable Void pass) {
    }

    @Override
    public String toString() {
        return "RateLimiterStage[" + this.limiter.name() + "]";
    }

}
