package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AsyncPipelineTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private ResiliencePipeline.Builder pipeline(int maxAttempts) {
        return ResiliencePipeline.builder("quote")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder()
                .maxAttempts(maxAttempts)
                .backoff(Backoff.of(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1), Jitter.NONE))
                .build());
    }

    private static Supplier<CompletionStage<String>> failingTimes(int failures, AtomicInteger calls) {
        return () -> {
            int call = calls.incrementAndGet();
            return (call <= failures) ? CompletableFuture.failedFuture(new IOException("down " + call))
                    : CompletableFuture.completedFuture("quote-" + call);
        };
    }

    @Test
    void retriesAreScheduledInsteadOfBlockingTheCaller() {
        AtomicInteger calls = new AtomicInteger();

        CompletableFuture<ExecutionResult<String>> future = pipeline(3).build()
            .executeAsync(CallContext.empty(), failingTimes(2, calls));

        assertThat(future).isNotDone();
        assertThat(calls).hasValue(1);
        assertThat(this.clock.sleeps()).isEmpty();
        assertThat(this.clock.pendingTasks()).isEqualTo(1);

        this.clock.advance(Duration.ofMillis(100));
        assertThat(calls).hasValue(2);
        assertThat(future).isNotDone();

        this.clock.advance(Duration.ofMillis(200));
        assertThat(future).isCompleted();
        ExecutionResult<String> result = future.join();
        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.value()).isEqualTo("quote-3");
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(result.attemptFailures()).hasSize(2);
        assertThat(result.duration()).isEqualTo(Duration.ofMillis(300));
    }

    @Test
    void breakerRecordsEachAttemptWhenItsStageCompletes() {
        CircuitBreaker breaker = CircuitBreaker.of("quotes", CircuitBreakerConfig.builder().minimumCalls(100).build(),
                this.clock);
        CompletableFuture<String> pending = new CompletableFuture<>();

        CompletableFuture<ExecutionResult<String>> future = pipeline(1).circuitBreaker(breaker)
            .build()
            .executeAsync(CallContext.empty(), () -> pending);

        assertThat(breaker.metrics().bufferedCalls()).isZero();
        this.clock.advance(Duration.ofSeconds(2));
        pending.complete("late quote");
        assertThat(future.join().value()).isEqualTo("late quote");
        assertThat(breaker.metrics().bufferedCalls()).isEqualTo(1);
    }

    @Test
    void attemptTimeoutCompletesTheAttemptAndCancelsItsStage() {
        CompletableFuture<String> neverCompletes = new CompletableFuture<>();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quote")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder().maxAttempts(1).attemptTimeout(Duration.ofSeconds(1)).build())
            .build();

        CompletableFuture<ExecutionResult<String>> future = pipeline.executeAsync(CallContext.empty(),
                () -> neverCompletes);
        this.clock.advance(Duration.ofSeconds(1));

        ExecutionResult<String> result = future.join();
        assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(result.error()).isInstanceOf(AttemptTimeoutException.class);
        assertThat(neverCompletes).isCancelled();
    }

    @Test
    void asynchronousFallbackIsAwaited() {
        AtomicInteger calls = new AtomicInteger();
        FallbackChain chain = FallbackChain
            .of(FallbackHandler.of("cached", (error, call) -> CompletableFuture.completedFuture("cached quote")));

        ExecutionResult<String> result = pipeline(1).fallbacks(chain)
            .build()
            .executeAsync(CallContext.empty(), failingTimes(1, calls))
            .join();

        assertThat(result.value()).isEqualTo("cached quote");
        assertThat(result.fallbackIndex()).isEqualTo(1);
    }

    @Test
    void callAsyncFailsWithTheFinalError() {
        AtomicInteger calls = new AtomicInteger();

        CompletableFuture<String> future = pipeline(2).build().callAsync(CallContext.empty(), failingTimes(5, calls));
        this.clock.advance(Duration.ofSeconds(1));

        assertThat(future).isCompletedExceptionally();
        assertThat(future.handle((value, error) -> error).join()).isInstanceOf(IOException.class).hasMessage("down 2");
    }

    @Test
    void idempotentAsynchronousCallReplaysItsStoredValue() {
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.clock);
        ResiliencePipeline pipeline = pipeline(1).idempotency(IdempotencyPolicy.of("quote", store)).build();
        AtomicInteger calls = new AtomicInteger();

        pipeline.executeAsync(CallContext.idempotent("k", "fp"), failingTimes(0, calls)).join();
        ExecutionResult<String> replay = pipeline
            .executeAsync(CallContext.idempotent("k", "fp"), failingTimes(0, calls))
            .join();

        assertThat(calls).hasValue(1);
        assertThat(replay.replayed()).isTrue();
        assertThat(replay.value()).isEqualTo("quote-1");
    }

}
