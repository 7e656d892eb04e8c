package dev.resilience.core;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.ratelimiter.RateLimitedException;

/**
 * The refusals of guards nested inside an action (a protected bean it calls, the HTTP
 * client's breaker): a {@link CallNotPermittedException}, {@link BulkheadFullException}
 * or {@link RateLimitedException}, thrown as it is or wrapped by the
 * {@link CompletionException} of {@code join()} or the {@link ExecutionException} of
 * {@code get()}, so that a synchronous action that waits for a refused stage is judged as
 * an asynchronous one whose stage was refused.
 */
final class NestedRefusals {

    private NestedRefusals() {
    }

    /**
     * Returns the nested refusal a failure is or wraps, or the failure as it is.
     * @param failure what an attempt threw
     * @return the refusal, unwrapped; otherwise {@code failure}
     */
    static Throwable unwrapped(Throwable failure) {
        Throwable cause = Futures.unwrap(failure);
        return isRefusal(cause) ? cause : failure;
    }

    /**
     * Returns whether a failure, as it is, is a nested guard's refusal.
     * @param failure what an attempt threw
     * @return {@code true} for a refusal of a breaker, bulkhead or rate limiter
     */
    static boolean isRefusal(Throwable failure) {
        return failure instanceof CallNotPermittedException || failure instanceof BulkheadFullException
                || failure instanceof RateLimitedException;
    }

}
