package dev.resilience.core;

import dev.resilience.core.ratelimiter.RateLimitedException;
import dev.resilience.core.ratelimiter.RateLimiter;

/**
 * The rate limiter stage of a pipeline, the outermost guard: takes a permit for each
 * attempt, or refuses it with a {@link RateLimitedException}. A synchronous attempt waits
 * for a permit up to the limiter's timeout, on its own thread; an interruption of that
 * wait gives the permit back and ends the call with a {@link CallInterruptedException}.
 * An asynchronous attempt never waits: without a free permit it is refused at once,
 * whatever the timeout, with the exact wait a permit needs. A permit is never given back
 * on the attempt's outcome: the limiter limits a rate, not a concurrency.
 */
final class RateLimiterStage implements AttemptGuard<Boolean> {

    private final RateLimiter limiter;

    RateLimiterStage(RateLimiter limiter) {
        this.limiter = limiter;
    }

    @Override
    public int order() {
        return RATE_LIMITER;
    }

    @Override
    public Boolean admit() {
        return admit(false);
    }

    @Override
    public Boolean admit(boolean mayBlock) {
        if (!mayBlock) {
            this.limiter.acquirePermissionWithoutWaiting();
            return Boolean.TRUE;
        }
        try {
            this.limiter.acquirePermission();
        }
        catch (InterruptedException ex) {
            throw new CallInterruptedException(this.limiter.name(), ex);
        }
        return Boolean.TRUE;
    }

    @Override
    public void succeeded(Boolean pass, long durationNanos) {
    }

    @Override
    public void failed(Boolean pass, long durationNanos, Throwable failure) {
    }

    @Override
    public void abandoned(Boolean pass) {
    }

    @Override
    public String toString() {
        return "RateLimiterStage[" + this.limiter.name() + "]";
    }

}
