package dev.resilience.core;

import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.ratelimiter.RateLimitedException;
import org.jspecify.annotations.Nullable;

/**
 * The breaker stage of a pipeline: asks the breaker to admit each attempt, which it
 * refuses with a {@link dev.resilience.core.circuitbreaker.CallNotPermittedException}
 * while open, and records the attempt's outcome with the permit it got. A
 * {@link BulkheadFullException} or a {@link RateLimitedException} thrown from inside the
 * attempt (a nested bulkhead or rate limiter) is not an outcome of the protected service
 * but of a guard's load (the pipeline's own guards refuse before the attempt, and the
 * breaker then gets its permit back): the permit is given back without recording a
 * failure. A value is judged by the breaker's result predicate; when that throws, the
 * attempt is recorded as failed and the call ends with a
 * {@link ResultPredicateException}, or with the {@link Error} it threw, as it is. Holds
 * nothing but its breaker.
 */
final class BreakerStage implements AttemptGuard<CircuitBreaker.Permit> {

    private final CircuitBreaker breaker;

    BreakerStage(CircuitBreaker breaker) {
        this.breaker = breaker;
    }

    @Override
    public int order() {
        return CIRCUIT_BREAKER;
    }

    @Override
    public boolean judgesValues() {
        return this.breaker.config().judgesResults();
    }

    @Override
    public boolean answersAtOnce() {
        return true;
    }

    @Override
    public boolean countsChanges() {
        return true;
    }

    @Override
    public long changes() {
        return this.breaker.stateChanges();
    }

    @Override
    public CircuitBreaker.Permit admit() {
        return this.breaker.acquirePermit();
    }

    @Override
    public void succeeded(CircuitBreaker.Permit permit, long durationNanos) {
        this.breaker.onSuccess(permit, durationNanos);
    }

    @Override
    public void succeeded(CircuitBreaker.Permit permit, long durationNanos, @Nullable Object value) {
        try {
            this.breaker.onResult(permit, durationNanos, value);
        }
        catch (RuntimeException ex) {
            throw new ResultPredicateException(this.breaker.name(), ex);
        }
    }

    @Override
    public void failed(CircuitBreaker.Permit permit, long durationNanos, Throwable failure) {
        if (failure instanceof BulkheadFullException || failure instanceof RateLimitedException) {
            this.breaker.release(permit);
            return;
        }
        this.breaker.onError(permit, durationNanos, failure);
    }

    @Override
    public void abandoned(CircuitBreaker.Permit permit) {
        this.breaker.release(permit);
    }

}
