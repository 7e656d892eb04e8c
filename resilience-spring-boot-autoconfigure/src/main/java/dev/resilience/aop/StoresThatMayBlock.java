package dev.resilience.aop;

import dev.resilience.core.LastGood;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.lastgood.InMemoryLastGoodStore;
import dev.resilience.core.ratelimiter.RateLimiter;

/**
 * Tells whether the calls of a pipeline use a store that may block the thread calling it:
 * its idempotency store, its store of last good values, or the dead-letter store of a
 * pipeline that retries, unless it is the in-memory one, and the store of a rate limiter
 * whose permits are shared (a permit asks the store as the call passes the limiter). The
 * Redis stores wait for Redis, up to their timeout; a store of the application's own is
 * taken to wait too. A call of a method returning {@code Mono} or {@code Flux} that uses
 * one starts on the pipeline's executor when it is subscribed on a thread that must not
 * block (one Reactor marks non-blocking, a worker of Kotlin's coroutine scheduler,
 * kotlinx's timer thread), a call of a {@code suspend} function or a {@code Flow} always
 * ({@link FirstStep}).
 */
final class StoresThatMayBlock {

    private StoresThatMayBlock() {
    }

    /**
     * Tells whether a pipeline's calls use a store that may block.
     * @param pipeline the pipeline
     * @return {@code true} when one of its stores is not an in-memory one, or its rate
     * limiter's permits are shared
     */
    static boolean in(ResiliencePipeline pipeline) {
        IdempotencyPolicy idempotency = pipeline.idempotency();
        if (idempotency != null && !(idempotency.store() instanceof InMemoryIdempotencyStore)) {
            return true;
        }
        RateLimiter limiter = pipeline.rateLimiter();
        if (limiter != null && limiter.sharedPermits() != null) {
            return true;
        }
        LastGood lastGood = pipeline.lastGood();
        if (lastGood != null && !(lastGood.store() instanceof InMemoryLastGoodStore)) {
            return true;
        }
        DeadLetterStore deadLetters = pipeline.deadLetters();
        return pipeline.retry() != null && deadLetters != null && !(deadLetters instanceof InMemoryDeadLetterStore);
    }

}
