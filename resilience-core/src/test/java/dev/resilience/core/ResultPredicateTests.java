package dev.resilience.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerListener;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.circuitbreaker.CircuitBreakerTransition;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Result predicates: the retry policy's {@code retryOnResult} retries a value as a
 * failure, the breaker's {@code failOnResult} records a value as a failure, and a
 * predicate that throws ends the call as an ERROR, sync and async.
 */
class ResultPredicateTests {

    private static final Predicate<@Nullable Object> PENDING = "PENDING"::equals;

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private ResiliencePipeline.Builder pipeline(Predicate<@Nullable Object> retryOnResult) {
        return ResiliencePipeline.builder("order-status")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder()
                .maxAttempts(3)
                .backoff(Backoff.of(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1), Jitter.NONE))
                .retryOnResult(retryOnResult)
                .build());
    }

    private static CompletableFuture<String> completed(String value) {
        return CompletableFuture.completedFuture(value);
    }

    @Test
    void aRejectedValueIsRetriedWithBackoffUntilAnAcceptedOne() {
        AtomicInteger runs = new AtomicInteger();

        ExecutionResult<String> result = pipeline(PENDING).build()
            .execute(() -> (runs.incrementAndGet() < 3) ? "PENDING" : "DONE");

        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.value()).isEqualTo("DONE");
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(result.attemptFailures()).hasSize(2)
            .allSatisfy((failure) -> assertThat(failure.error()).isInstanceOf(RejectedResultException.class));
        assertThat(this.clock.sleeps()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
    }

    @Test
    void anAsynchronousRejectedValueIsRetriedWhateverExceptionTypesThePolicyAbortsOnOrFilters() {
        AtomicInteger runs = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("order-status")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder()
                .maxAttempts(3)
                .backoff(Backoff.of(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1), Jitter.NONE))
                .abortOn(RuntimeException.class)
                .retryOnError((error) -> false)
                .retryOnResult(PENDING)
                .build())
            .build();

        CompletableFuture<ExecutionResult<String>> call = pipeline.executeAsync(CallContext.empty(),
                () -> completed((runs.incrementAndGet() < 3) ? "PENDING" : "DONE"));
        this.clock.advance(Duration.ofMillis(300));

        assertThat(call.join().value()).isEqualTo("DONE");
        assertThat(call.join().attempts()).isEqualTo(3);
    }

    @Test
    void aValueStillRejectedAfterTheLastAttemptEndsAsErrorWithRejectedResultException() {
        AtomicInteger runs = new AtomicInteger();

        ExecutionResult<String> result = pipeline(PENDING).build().execute(() -> {
            runs.incrementAndGet();
            return "PENDING";
        });

        assertThat(runs).hasValue(3);
        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(result.value()).isNull();
        assertThat(result.error()).isInstanceOfSatisfying(RejectedResultException.class,
                (ex) -> assertThat(ex.result()).isEqualTo("PENDING"));
        assertThatExceptionOfType(RejectedResultException.class)
            .isThrownBy(() -> pipeline(PENDING).build().call(() -> "PENDING"));
    }

    @Test
    void aValueStillRejectedGoesToTheFallbacks() {
        ExecutionResult<String> result = pipeline(PENDING)
            .fallbacks(FallbackChain.of(FallbackHandler.of("queued",
                    (error, call) -> (error instanceof RejectedResultException) ? "QUEUED" : "other")))
            .build()
            .execute(() -> "PENDING");

        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.value()).isEqualTo("QUEUED");
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(result.fallbackUsed()).isTrue();
    }

    @Test
    void aRejectedValueIsRetriedWithoutBlockingInAnAsynchronousCall() {
        AtomicInteger runs = new AtomicInteger();

        CompletableFuture<ExecutionResult<String>> future = pipeline(PENDING).build()
            .executeAsync(CallContext.empty(), () -> completed((runs.incrementAndGet() < 3) ? "PENDING" : "DONE"));
        assertThat(future).isNotDone();
        this.clock.advance(Duration.ofMillis(100));
        assertThat(future).isNotDone();
        this.clock.advance(Duration.ofMillis(200));

        ExecutionResult<String> result = future.join();
        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.value()).isEqualTo("DONE");
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(this.clock.sleeps()).isEmpty();
    }

    @Test
    void aValueStillRejectedInAnAsynchronousCallEndsAsErrorAfterMaxAttempts() {
        AtomicInteger runs = new AtomicInteger();

        CompletableFuture<ExecutionResult<String>> future = pipeline(PENDING).build()
            .executeAsync(CallContext.empty(), () -> {
                runs.incrementAndGet();
                return completed("PENDING");
            });
        this.clock.advance(Duration.ofSeconds(1));

        ExecutionResult<String> result = future.join();
        assertThat(runs).hasValue(3);
        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(result.error()).isInstanceOf(RejectedResultException.class);
    }

    @Test
    void aRejectedValueRespectsTheDeadline() {
        ExecutionResult<String> result = ResiliencePipeline.builder("order-status")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder()
                .maxAttempts(5)
                .backoff(Backoff.of(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1), Jitter.NONE))
                .retryOnResult(PENDING)
                .maxDuration(Duration.ofMillis(250))
                .build())
            .build()
            .execute(() -> "PENDING");

        assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(result.attempts()).isEqualTo(2);
        assertThat(result.error()).isInstanceOf(DeadlineExceededException.class)
            .hasCauseInstanceOf(RejectedResultException.class);
    }

    @Test
    void aThrowingRetryPredicateEndsTheCallAtOnceAsErrorWithItsExceptionAsCause() throws Exception {
        IllegalStateException bug = new IllegalStateException("predicate bug");
        Predicate<@Nullable Object> throwing = (value) -> {
            throw bug;
        };
        AtomicInteger runs = new AtomicInteger();

        ExecutionResult<String> result = pipeline(throwing).listener(new ExecutionListener() {
        }).build().execute(() -> {
            runs.incrementAndGet();
            return "DONE";
        });
        ExecutionResult<String> async = pipeline(throwing).build()
            .<String>executeAsync(CallContext.empty(), () -> completed("DONE"))
            .join();

        assertThat(runs).hasValue(1);
        for (ExecutionResult<String> ended : List.of(result, async)) {
            assertThat(ended.status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(ended.attempts()).isEqualTo(1);
            assertThat(ended.error()).isInstanceOf(ResultPredicateException.class).hasCause(bug);
        }
        assertThatExceptionOfType(ResultPredicateException.class)
            .isThrownBy(() -> pipeline(throwing).build().call(() -> "DONE"))
            .withCause(bug);
        assertThat(this.clock.sleeps()).isEmpty();
    }

    @Test
    void aThrowingRetryPredicateGoesToTheFallbacks() {
        ExecutionResult<String> result = pipeline((value) -> {
            throw new IllegalStateException("predicate bug");
        }).fallbacks(FallbackChain.of(FallbackHandler.of("cached", (error, call) -> "CACHED")))
            .build()
            .execute(() -> "DONE");

        assertThat(result.value()).isEqualTo("CACHED");
        assertThat(result.attempts()).isEqualTo(1);
    }

    private CircuitBreaker breaker(Predicate<@Nullable Object> failOnResult, List<CircuitBreakerTransition> seen) {
        CircuitBreaker breaker = CircuitBreaker.of("order-status",
                CircuitBreakerConfig.builder()
                    .slidingWindowSize(4)
                    .minimumCalls(4)
                    .failureRateThreshold(50)
                    .failOnResult(failOnResult)
                    .build(),
                this.clock, Runnable::run);
        breaker.addListener(new CircuitBreakerListener() {
            @Override
            public void onStateTransition(CircuitBreakerTransition transition) {
                seen.add(transition);
            }
        });
        return breaker;
    }

    @Test
    void aValueTheBreakerCountsAsAFailureOpensItAndTheCallStillReturnsTheValue() throws Exception {
        List<CircuitBreakerTransition> seen = new ArrayList<>();
        CircuitBreaker breaker = breaker("FAILED"::equals, seen);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("order-status")
            .timeSource(this.clock)
            .circuitBreaker(breaker)
            .build();

        assertThat(pipeline.<String>call(() -> "OK")).isEqualTo("OK");
        assertThat(pipeline.<String>call(() -> "OK")).isEqualTo("OK");
        assertThat(pipeline.<String>call(() -> "FAILED")).isEqualTo("FAILED");
        assertThat(seen).isEmpty();
        assertThat(pipeline.execute(() -> "FAILED").value()).isEqualTo("FAILED");

        assertThat(seen).singleElement().satisfies((transition) -> {
            assertThat(transition.from()).isEqualTo(CircuitBreakerState.CLOSED);
            assertThat(transition.to()).isEqualTo(CircuitBreakerState.OPEN);
        });
        assertThat(breaker.metrics().failedCallsTotal()).isEqualTo(2);
        assertThat(breaker.metrics().successfulCallsTotal()).isEqualTo(2);
        assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(() -> pipeline.call(() -> "OK"));
    }

    @Test
    void anAsynchronousValueTheBreakerCountsAsAFailureIsRecordedOnCompletion() {
        List<CircuitBreakerTransition> seen = new ArrayList<>();
        CircuitBreaker breaker = breaker("FAILED"::equals, seen);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("order-status")
            .timeSource(this.clock)
            .circuitBreaker(breaker)
            .build();

        List<String> values = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            CompletableFuture<String> pending = new CompletableFuture<>();
            CompletableFuture<String> call = pipeline.callAsync(CallContext.empty(), () -> pending);
            assertThat(breaker.metrics().bufferedCalls()).isEqualTo(i);
            pending.complete("FAILED");
            values.add(call.join());
        }

        assertThat(values).containsOnly("FAILED");
        assertThat(seen).extracting(CircuitBreakerTransition::to).containsExactly(CircuitBreakerState.OPEN);
    }

    @Test
    void retryOnResultAndFailOnResultTogetherRetryAndRecordEachRejectedValue() {
        List<CircuitBreakerTransition> seen = new ArrayList<>();
        CircuitBreaker breaker = breaker(PENDING, seen);
        AtomicInteger runs = new AtomicInteger();

        ExecutionResult<String> result = pipeline(PENDING).circuitBreaker(breaker)
            .build()
            .execute(() -> (runs.incrementAndGet() < 3) ? "PENDING" : "DONE");

        assertThat(result.value()).isEqualTo("DONE");
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(breaker.metrics().failedCallsTotal()).isEqualTo(2);
        assertThat(breaker.metrics().successfulCallsTotal()).isEqualTo(1);
    }

    @Test
    void aThrowingBreakerPredicateIsRecordedAsAFailureAndEndsTheCallAsError() throws Exception {
        IllegalStateException bug = new IllegalStateException("predicate bug");
        List<CircuitBreakerTransition> seen = new ArrayList<>();
        CircuitBreaker breaker = breaker((value) -> {
            throw bug;
        }, seen);
        AtomicInteger runs = new AtomicInteger();
        ResiliencePipeline.Builder builder = pipeline(PENDING).circuitBreaker(breaker);

        ExecutionResult<String> sync = builder.build().execute(() -> {
            runs.incrementAndGet();
            return "DONE";
        });
        ExecutionResult<String> async = builder.build()
            .<String>executeAsync(CallContext.empty(), () -> completed("DONE"))
            .join();
        ExecutionResult<String> fallenBack = builder
            .fallbacks(FallbackChain.of(FallbackHandler.of("cached", (error, call) -> "CACHED")))
            .build()
            .execute(() -> "DONE");

        assertThat(runs).hasValue(1);
        for (ExecutionResult<String> ended : List.of(sync, async)) {
            assertThat(ended.status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(ended.attempts()).as("not retried").isEqualTo(1);
            assertThat(ended.error()).isInstanceOf(ResultPredicateException.class).hasCause(bug);
        }
        assertThat(fallenBack.value()).isEqualTo("CACHED");
        assertThatExceptionOfType(ResultPredicateException.class)
            .isThrownBy(() -> ResiliencePipeline.builder("fast").circuitBreaker(breaker).build().call(() -> "DONE"))
            .withCause(bug);
        assertThat(breaker.metrics().failedCallsTotal()).isEqualTo(4);
        assertThat(seen).extracting(CircuitBreakerTransition::to).containsExactly(CircuitBreakerState.OPEN);
        assertThat(this.clock.sleeps()).isEmpty();
    }

}
