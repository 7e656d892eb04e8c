package dev.resilience.core;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of {@link CallContext#judged()}: the result predicates see the arguments of the
 * call whose value they judge, sync and async, and nothing outside them.
 */
class JudgedCallTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final List<List<@Nullable Object>> retryJudged = new CopyOnWriteArrayList<>();

    private final List<List<@Nullable Object>> breakerJudged = new CopyOnWriteArrayList<>();

    private ResiliencePipeline pipeline() {
        RetryPolicy retry = RetryPolicy.builder().maxAttempts(1).retryOnResult((value) -> {
            this.retryJudged.add(CallContext.judged().arguments());
            return false;
        }).build();
        CircuitBreaker breaker = CircuitBreaker.of("orders", CircuitBreakerConfig.builder().failOnResult((value) -> {
            this.breakerJudged.add(CallContext.judged().arguments());
            return false;
        }).build(), this.clock);
        return ResiliencePipeline.builder("orders").timeSource(this.clock).retry(retry).circuitBreaker(breaker).build();
    }

    @Test
    void syncPredicatesSeeTheCallsArguments() {
        ResiliencePipeline pipeline = pipeline();

        assertThat(pipeline.execute(CallContext.of("Orders#find", List.of("order-1")), () -> "found").value())
            .isEqualTo("found");

        assertThat(this.retryJudged).containsExactly(List.of("order-1"));
        assertThat(this.breakerJudged).containsExactly(List.of("order-1"));
        assertThat(CallContext.judged()).isSameAs(CallContext.empty());
    }

    @Test
    void asyncPredicatesSeeTheCallsArguments() {
        ResiliencePipeline pipeline = pipeline();
        CompletableFuture<String> pending = new CompletableFuture<>();

        CompletableFuture<ExecutionResult<String>> result = pipeline
            .executeAsync(CallContext.of("Orders#findAsync", List.of("order-2")), () -> pending);
        pending.complete("found");

        assertThat(result.join().value()).isEqualTo("found");
        assertThat(this.retryJudged).containsExactly(List.of("order-2"));
        assertThat(this.breakerJudged).containsExactly(List.of("order-2"));
    }

    @Test
    void callWithoutContextIsJudgedWithTheEmptyContext() {
        ResiliencePipeline pipeline = pipeline();

        pipeline.execute(() -> "found");

        assertThat(this.retryJudged).containsExactly(List.of());
        assertThat(this.breakerJudged).containsExactly(List.of());
    }

    @Test
    void eachPredicateSeesTheCallsArgumentsWhenTheOtherStageJudgesNothing() {
        RetryPolicy judgingRetry = RetryPolicy.builder().maxAttempts(1).retryOnResult((value) -> {
            this.retryJudged.add(CallContext.judged().arguments());
            return false;
        }).build();
        CircuitBreaker judgingBreaker = CircuitBreaker.of("judging",
                CircuitBreakerConfig.builder().failOnResult((value) -> {
                    this.breakerJudged.add(CallContext.judged().arguments());
                    return false;
                }).build(), this.clock);
        ResiliencePipeline retryOnly = ResiliencePipeline.builder("orders")
            .timeSource(this.clock)
            .retry(judgingRetry)
            .circuitBreaker(CircuitBreaker.of("plain", CircuitBreakerConfig.ofDefaults(), this.clock))
            .build();
        ResiliencePipeline breakerOnly = ResiliencePipeline.builder("orders")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder().maxAttempts(1).build())
            .circuitBreaker(judgingBreaker)
            .build();

        retryOnly.execute(CallContext.of("Orders#find", List.of("order-3")), () -> "found");
        breakerOnly
            .executeAsync(CallContext.of("Orders#findAsync", List.of("order-4")),
                    () -> CompletableFuture.completedFuture("found"))
            .join();

        assertThat(this.retryJudged).containsExactly(List.of("order-3"));
        assertThat(this.breakerJudged).containsExactly(List.of("order-4"));
        assertThat(CallContext.judged()).isSameAs(CallContext.empty());
    }

}
