package dev.resilience.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.bulkhead.BulkheadType;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.ratelimiter.RateLimitedException;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A refusal of a guard nested inside the action, which a synchronous action that waits
 * for a refused stage throws wrapped ({@code join()}'s {@link CompletionException},
 * {@code get()}'s {@link ExecutionException}), is judged as an asynchronous action's
 * refused stage is: not retried, REJECTED with the refusal itself, and heard by the
 * pipeline's own guards as the refusal.
 */
class NestedRefusalsTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    static Stream<Arguments> wrappedRefusals() {
        Function<Throwable, Exception> joined = CompletionException::new;
        Function<Throwable, Exception> got = ExecutionException::new;
        return Stream
            .of(new CallNotPermittedException("inner", CircuitBreakerState.OPEN, null),
                    new BulkheadFullException("inner", 1), new RateLimitedException("inner", Duration.ofSeconds(1)))
            .flatMap((refusal) -> Stream.of(Arguments.of(refusal, joined), Arguments.of(refusal, got)));
    }

    @ParameterizedTest
    @MethodSource("wrappedRefusals")
    void aSynchronousActionThatThrowsANestedRefusalWrappedIsJudgedAsAnAsynchronousOne(RuntimeException refusal,
            Function<Throwable, Exception> wrapper) {
        Guarded sync = new Guarded();
        Guarded async = new Guarded();
        AtomicInteger syncRuns = new AtomicInteger();
        AtomicInteger asyncRuns = new AtomicInteger();

        ExecutionResult<String> synchronous = sync.pipeline.execute(() -> {
            syncRuns.incrementAndGet();
            throw wrapper.apply(refusal);
        });
        ExecutionResult<String> asynchronous = async.pipeline.executeAsync(CallContext.empty(), () -> {
            asyncRuns.incrementAndGet();
            return CompletableFuture.<String>failedFuture(refusal);
        }).join();

        for (ExecutionResult<String> result : new ExecutionResult[] { synchronous, asynchronous }) {
            assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
            assertThat(result.error()).isSameAs(refusal);
            assertThat(result.attempts()).isEqualTo(1);
        }
        assertThat(syncRuns).as("sync attempts").hasValue(1);
        assertThat(asyncRuns).as("async attempts").hasValue(1);
        assertThat(sync.breaker.metrics().failedCallsTotal()).as("failures the breaker recorded, sync")
            .isEqualTo(async.breaker.metrics().failedCallsTotal())
            .isEqualTo((refusal instanceof CallNotPermittedException) ? 1 : 0);
        assertThat(sync.bulkhead.limit()).as("the adaptive limit, sync").isEqualTo(10);
        assertThat(async.bulkhead.limit()).as("the adaptive limit, async").isEqualTo(10);
    }

    /** A pipeline that retries, with a breaker and an adaptive bulkhead of its own. */
    private final class Guarded {

        final CircuitBreaker breaker = CircuitBreaker.of("inventory",
                CircuitBreakerConfig.builder().slidingWindowSize(100).minimumCalls(100).build(),
                NestedRefusalsTests.this.clock);

        final Bulkhead bulkhead = Bulkhead.of("inventory",
                BulkheadConfig.builder()
                    .type(BulkheadType.ADAPTIVE)
                    .maxConcurrentCalls(10)
                    .minLimit(1)
                    .maxLimit(20)
                    .build(),
                NestedRefusalsTests.this.clock);

        final ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(NestedRefusalsTests.this.clock)
            .retry(RetryPolicy.builder().maxAttempts(3).backoff(Backoff.none()).build())
            .circuitBreaker(this.breaker)
            .bulkhead(this.bulkhead)
            .build();

    }

}
