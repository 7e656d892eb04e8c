package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A toy policy added the way CONTRIBUTING's "How to add a policy" says, with nothing
 * changed outside the files it names: {@link CallQuota} (the policy: at most so many
 * attempts, counted) and {@link CallQuotaStage} (its stage, an {@link AttemptGuard}),
 * registered through {@link ResiliencePipeline.Builder#guard(Class, AttemptGuard)}, the
 * one line a policy's builder setter holds. Neither driver, {@link Stages} nor
 * {@link Execution} knows it, and both drivers pass every attempt through it in the
 * guards' order.
 */
class CountingGuardTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final CallQuota quota = new CallQuota(100);

    private ResiliencePipeline.Builder pipeline(int maxAttempts) {
        return ResiliencePipeline.builder("toy")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder()
                .maxAttempts(maxAttempts)
                .backoff(Backoff.of(Duration.ofMillis(100), 1.0, Duration.ofSeconds(1), Jitter.NONE))
                .build())
            .guard(CallQuotaStage.class, new CallQuotaStage(this.quota, AttemptGuard.BULKHEAD));
    }

    @Test
    void everySynchronousAttemptPassesTheStageAndItHearsEachOutcome() {
        AtomicInteger runs = new AtomicInteger();

        ExecutionResult<String> result = pipeline(3).build().execute(() -> {
            if (runs.incrementAndGet() < 3) {
                throw new IOException("down");
            }
            return "ok";
        });

        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(this.quota.counts()).containsExactly(3L, 1L, 2L, 0L);
    }

    @Test
    void theFastPathOfACallWithoutPerCallStatePassesTheStageToo() throws Exception {
        ResiliencePipeline pipeline = ResiliencePipeline.builder("toy")
            .guard(CallQuotaStage.class, new CallQuotaStage(this.quota, AttemptGuard.BULKHEAD))
            .build();

        assertThat(pipeline.<String>call(() -> "ok")).isEqualTo("ok");

        assertThat(this.quota.counts()).containsExactly(1L, 1L, 0L, 0L);
    }

    @Test
    void everyAsynchronousAttemptPassesTheStageAndItHearsEachOutcome() {
        AtomicInteger runs = new AtomicInteger();

        CompletableFuture<ExecutionResult<String>> future = pipeline(3).build()
            .executeAsync(CallContext.empty(),
                    () -> (runs.incrementAndGet() < 3) ? CompletableFuture.failedFuture(new IOException("down"))
                            : CompletableFuture.completedFuture("ok"));
        this.clock.advance(Duration.ofMillis(200));

        assertThat(future.join().attempts()).isEqualTo(3);
        assertThat(this.quota.counts()).containsExactly(3L, 1L, 2L, 0L);
    }

    @Test
    void aRefusalEndsTheCallRejectedWithoutRetryAndGoesToTheFallbacks() {
        CallQuota exhausted = new CallQuota(0);
        AtomicInteger runs = new AtomicInteger();

        ExecutionResult<Object> result = pipeline(3)
            .guard(CallQuotaStage.class, new CallQuotaStage(exhausted, AttemptGuard.BULKHEAD))
            .fallbacks(FallbackChain.of(FallbackHandler.of("later", (error, call) -> "queued")))
            .build()
            .execute(() -> runs.incrementAndGet());

        assertThat(runs).hasValue(0);
        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.value()).isEqualTo("queued");
        assertThat(result.attempts()).isZero();
        assertThat(result.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "later");
        assertThat(exhausted.counts()).containsExactly(0L, 0L, 0L, 0L);
        assertThat(this.quota.counts()).as("the builder replaced the first stage of the same class")
            .containsExactly(0L, 0L, 0L, 0L);
    }

    @Test
    void aCallTheStageRefusedShedsLoadAndIsNoDeadLetter() {
        InMemoryDeadLetterStore deadLetters = new InMemoryDeadLetterStore();

        ExecutionResult<Object> result = pipeline(3)
            .guard(CallQuotaStage.class, new CallQuotaStage(new CallQuota(0), AttemptGuard.BULKHEAD))
            .deadLetters(deadLetters)
            .build()
            .execute(() -> "never");

        assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(result.error()).isInstanceOf(QuotaExhaustedException.class);
        assertThat(deadLetters.size()).isZero();
        assertThat(result.metadata()).doesNotContainKey(ExecutionResult.DEAD_LETTER_ID);
    }

    @Test
    void aGuardInsideTheBreakerIsNotAskedWhileTheBreakerIsOpen() {
        CircuitBreaker breaker = CircuitBreaker.of("toy", CircuitBreakerConfig.ofDefaults(), this.clock);
        breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);

        ExecutionResult<String> result = pipeline(3).circuitBreaker(breaker).build().execute(() -> "ok");

        assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(result.error()).isInstanceOf(CallNotPermittedException.class);
        assertThat(this.quota.counts()).containsExactly(0L, 0L, 0L, 0L);
    }

    @Test
    void aGuardOutsideTheBreakerGetsItsPassBackWhenTheBreakerRefuses() {
        CircuitBreaker breaker = CircuitBreaker.of("toy", CircuitBreakerConfig.ofDefaults(), this.clock);
        breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);

        ExecutionResult<String> result = pipeline(3).circuitBreaker(breaker)
            .guard(CallQuotaStage.class, new CallQuotaStage(this.quota, AttemptGuard.RATE_LIMITER))
            .build()
            .execute(() -> "ok");

        assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(this.quota.counts()).containsExactly(1L, 0L, 0L, 1L);
    }

    @Test
    void aRefusalInsideTheBreakerGivesTheBreakerItsHalfOpenPermitBack() {
        CircuitBreaker breaker = CircuitBreaker.of("toy",
                CircuitBreakerConfig.builder()
                    .slidingWindowSize(1)
                    .minimumCalls(1)
                    .waitInOpen(Duration.ofSeconds(1))
                    .halfOpenCalls(1)
                    .build(),
                this.clock);
        breaker.onError(breaker.acquirePermit(), 0, new IOException("down"));
        this.clock.advance(Duration.ofSeconds(1));
        ResiliencePipeline refusing = ResiliencePipeline.builder("toy")
            .timeSource(this.clock)
            .circuitBreaker(breaker)
            .guard(CallQuotaStage.class, new CallQuotaStage(new CallQuota(0), AttemptGuard.BULKHEAD))
            .build();
        ResiliencePipeline admitting = ResiliencePipeline.builder("toy")
            .timeSource(this.clock)
            .circuitBreaker(breaker)
            .build();

        assertThat(refusing.execute(() -> "ok").error()).isInstanceOf(QuotaExhaustedException.class);
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);

        assertThat(admitting.execute(() -> "ok").status()).as("the half-open permit was given back")
            .isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
    }

    @Test
    void aCancelledAsynchronousAttemptGivesItsPassBack() {
        CompletableFuture<String> pending = new CompletableFuture<>();

        CompletableFuture<ExecutionResult<String>> future = pipeline(3).build()
            .executeAsync(CallContext.empty(), () -> pending);
        future.cancel(true);
        this.clock.advance(Duration.ZERO);

        assertThat(pending).isCancelled();
        assertThat(this.quota.counts()).containsExactly(1L, 0L, 0L, 1L);
    }

    /**
     * The toy policy: at most {@code limit} attempts, and a count of what happened to
     * them. Immutable settings; thread-safe counts.
     */
    static final class CallQuota {

        private final long limit;

        private final AtomicLong admitted = new AtomicLong();

        private final AtomicLong succeeded = new AtomicLong();

        private final AtomicLong failed = new AtomicLong();

        private final AtomicLong abandoned = new AtomicLong();

        CallQuota(long limit) {
            this.limit = limit;
        }

        List<Long> counts() {
            return List.of(this.admitted.get(), this.succeeded.get(), this.failed.get(), this.abandoned.get());
        }

    }

    /** The toy policy's stage: admits an attempt while the quota lasts. */
    static final class CallQuotaStage implements AttemptGuard<Long> {

        private final CallQuota quota;

        private final int order;

        CallQuotaStage(CallQuota quota, int order) {
            this.quota = quota;
            this.order = order;
        }

        @Override
        public int order() {
            return this.order;
        }

        @Override
        public Long admit() {
            if (this.quota.admitted.get() >= this.quota.limit) {
                throw new QuotaExhaustedException();
            }
            return this.quota.admitted.incrementAndGet();
        }

        @Override
        public void succeeded(Long pass, long durationNanos) {
            this.quota.succeeded.incrementAndGet();
        }

        @Override
        public void failed(Long pass, long durationNanos, Throwable failure) {
            this.quota.failed.incrementAndGet();
        }

        @Override
        public void abandoned(Long pass) {
            this.quota.abandoned.incrementAndGet();
        }

    }

    static final class QuotaExhaustedException extends RuntimeException {

        QuotaExhaustedException() {
            super("The call quota is used up");
        }

    }

}
