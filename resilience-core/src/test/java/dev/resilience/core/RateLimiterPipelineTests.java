package dev.resilience.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerMetrics;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.ratelimiter.RateLimitedException;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rate limiter in a pipeline: the outermost guard, before the breaker; its refusals are
 * REJECTED, never retried, never recorded by the breaker, and go to the fallbacks.
 */
class RateLimiterPipelineTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final CircuitBreaker breaker = CircuitBreaker.of("search",
            CircuitBreakerConfig.builder().slidingWindowSize(4).minimumCalls(2).build(), this.clock);

    private RateLimiter limiter(Duration timeout) {
        return RateLimiter.of("search",
                RateLimiterConfig.builder().limit(5).period(Duration.ofSeconds(1)).timeout(timeout).build(),
                this.clock);
    }

    private ResiliencePipeline.Builder pipeline(RateLimiter limiter) {
        return ResiliencePipeline.builder("search")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder()
                .maxAttempts(3)
                .backoff(Backoff.of(Duration.ofMillis(100), 1.0, Duration.ofSeconds(1), Jitter.NONE))
                .build())
            .circuitBreaker(this.breaker)
            .rateLimiter(limiter);
    }

    private static void spend(RateLimiter limiter) {
        for (int i = 0; i < limiter.config().limit(); i++) {
            assertThat(limiter.tryAcquire()).isZero();
        }
    }

    @Test
    void aRefusalIsRejectedWithoutAnyAttemptGoesToTheFallbackAndLeavesTheBreakerAlone() {
        RateLimiter limiter = limiter(Duration.ZERO);
        spend(limiter);
        CircuitBreakerMetrics before = this.breaker.metrics();
        AtomicInteger runs = new AtomicInteger();
        ResiliencePipeline.Builder builder = pipeline(limiter);

        ExecutionResult<Object> rejected = builder.build().execute(runs::incrementAndGet);
        ExecutionResult<Object> fallenBack = builder
            .fallbacks(FallbackChain.of(FallbackHandler.of("later", (error, call) -> "queued")))
            .build()
            .execute(runs::incrementAndGet);

        assertThat(runs).hasValue(0);
        assertThat(rejected.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(rejected.attempts()).isZero();
        assertThat(rejected.error()).isInstanceOfSatisfying(RateLimitedException.class,
                (ex) -> assertThat(ex.retryAfter()).isEqualTo(Duration.ofMillis(200)));
        assertThat(this.clock.sleeps()).as("not retried").isEmpty();
        assertThat(fallenBack.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(fallenBack.value()).isEqualTo("queued");
        assertThat(fallenBack.attempts()).isZero();
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(this.breaker.metrics()).isEqualTo(before);
        assertThat(limiter.rejectedCalls()).isEqualTo(2);
    }

    @Test
    void aRefusalOfTheFastPathIsRejectedToo() {
        RateLimiter limiter = limiter(Duration.ZERO);
        spend(limiter);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("search").rateLimiter(limiter).build();

        ExecutionResult<String> result = pipeline.execute(() -> "never");

        assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(result.error()).isInstanceOf(RateLimitedException.class);
    }

    @Test
    void aSynchronousCallWaitsForAPermitWithinTheTimeout() throws Exception {
        RateLimiter limiter = limiter(Duration.ofMillis(500));
        spend(limiter);

        String value = pipeline(limiter).build().call(() -> "found");

        assertThat(value).isEqualTo("found");
        assertThat(this.clock.sleeps()).containsExactly(Duration.ofMillis(200));
        assertThat(this.breaker.metrics().successfulCallsTotal()).isEqualTo(1);
    }

    @Test
    void anInterruptDuringTheWaitEndsTheCallAtOnceAndGivesThePermitBack() {
        RateLimiter limiter = limiter(Duration.ofMillis(500));
        spend(limiter);
        AtomicInteger fallbacks = new AtomicInteger();
        ResiliencePipeline pipeline = pipeline(limiter)
            .fallbacks(FallbackChain.of(FallbackHandler.of("later", (error, call) -> fallbacks.incrementAndGet())))
            .build();

        Thread.currentThread().interrupt();
        ExecutionResult<String> result = pipeline.execute(() -> "never");
        boolean interruptFlag = Thread.interrupted();

        assertThat(interruptFlag).as("interrupt flag set again").isTrue();
        assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(result.attempts()).isZero();
        assertThat(result.error()).isInstanceOf(CallInterruptedException.class)
            .hasCauseInstanceOf(InterruptedException.class);
        assertThat(fallbacks).hasValue(0);
        assertThat(limiter.tryAcquire()).as("the reservation was given back").isEqualTo(200_000_000L);
        assertThat(this.breaker.metrics().notPermittedCallsTotal()).isZero();
    }

    @Test
    void anAsynchronousCallWhoseWaitExceedsTheTimeoutIsRefusedAtOnceWithTheExactWait() {
        RateLimiter limiter = limiter(Duration.ofMillis(100));
        spend(limiter);
        AtomicInteger runs = new AtomicInteger();

        CompletableFuture<ExecutionResult<String>> future = pipeline(limiter).build()
            .executeAsync(CallContext.empty(), () -> {
                runs.incrementAndGet();
                return CompletableFuture.completedFuture("never");
            });

        assertThat(future).isDone();
        ExecutionResult<String> result = future.join();
        assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(result.attempts()).isZero();
        assertThat(result.error()).isInstanceOfSatisfying(RateLimitedException.class,
                (ex) -> assertThat(ex.retryAfter()).isEqualTo(Duration.ofMillis(200)));
        assertThat(runs).hasValue(0);
        assertThat(this.clock.sleeps()).isEmpty();
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void anAsynchronousCallIsAdmittedWhileAPermitIsFree() {
        RateLimiter limiter = limiter(Duration.ZERO);

        ExecutionResult<String> result = pipeline(limiter).build()
            .<String>executeAsync(CallContext.empty(), () -> CompletableFuture.completedFuture("found"))
            .join();

        assertThat(result.value()).isEqualTo("found");
        assertThat(limiter.availablePermits()).isEqualTo(4);
    }

    @Test
    void everyRetryAttemptTakesAPermit() {
        RateLimiter limiter = limiter(Duration.ZERO);
        AtomicInteger runs = new AtomicInteger();

        ExecutionResult<String> result = pipeline(limiter).circuitBreaker(null).build().execute(() -> {
            if (runs.incrementAndGet() < 3) {
                throw new IllegalStateException("busy");
            }
            return "found";
        });

        assertThat(result.attempts()).isEqualTo(3);
        assertThat(limiter.permittedCalls()).isEqualTo(3);
    }

    @Test
    void aRateLimitedExceptionThrownByTheActionIsNotRetriedNorRecordedByTheBreaker() {
        RateLimiter limiter = limiter(Duration.ZERO);
        AtomicInteger runs = new AtomicInteger();

        ExecutionResult<String> result = pipeline(limiter).build().execute(() -> {
            runs.incrementAndGet();
            throw new RateLimitedException("downstream", Duration.ofSeconds(2));
        });

        assertThat(runs).hasValue(1);
        assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(this.breaker.metrics().failedCallsTotal()).isZero();
        assertThat(this.breaker.metrics().bufferedCalls()).isZero();
    }

    @Test
    void thePipelineKeepsItsRateLimiterAndRemovesItWithNull() {
        RateLimiter limiter = limiter(Duration.ZERO);
        spend(limiter);

        ResiliencePipeline removed = pipeline(limiter).rateLimiter(null).build();

        assertThat(pipeline(limiter).build().rateLimiter()).isSameAs(limiter);
        assertThat(removed.rateLimiter()).isNull();
        assertThat(removed.execute(() -> "found").value()).isEqualTo("found");
    }

    @Test
    void aThrowingBreakerPredicateBehindTheRateLimiterEndsTheCallAsError() {
        RateLimiter limiter = limiter(Duration.ZERO);
        CircuitBreaker judging = CircuitBreaker.of("search", CircuitBreakerConfig.builder().failOnResult((value) -> {
            throw new IllegalStateException("predicate bug");
        }).build(), this.clock);

        ExecutionResult<String> result = pipeline(limiter).circuitBreaker(judging).build().execute(() -> "found");

        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(result.error()).isInstanceOf(ResultPredicateException.class)
            .hasCauseInstanceOf(IllegalStateException.class);
        assertThat(judging.metrics().failedCallsTotal()).isEqualTo(1);
        assertThat(limiter.permittedCalls()).isEqualTo(1);
    }

}
