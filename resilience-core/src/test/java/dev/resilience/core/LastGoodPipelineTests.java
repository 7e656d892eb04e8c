package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.lastgood.InMemoryLastGoodStore;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LastGoodPipelineTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    @Test
    void aPipelineWithoutOtherPerCallStateKeepsTheValueOfItsFastPathAndServesIt() throws Exception {
        ResiliencePipeline pipeline = ResiliencePipeline.builder("price")
            .timeSource(this.clock)
            .lastGood(new LastGood(new InMemoryLastGoodStore(10, this.clock), Duration.ofHours(1), String.class,
                    (call) -> "eth", List.of(), List.of()))
            .build();
        AtomicBoolean down = new AtomicBoolean();

        assertThat(pipeline.<String>call(() -> "3000")).isEqualTo("3000");
        down.set(true);
        ExecutionResult<String> result = pipeline.execute(() -> {
            if (down.get()) {
                throw new IOException("oracle down");
            }
            return "never";
        });

        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.value()).isEqualTo("3000");
        assertThat(result.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, LastGood.FALLBACK_NAME);
    }

    @Test
    void aValueTheBreakerJudgesAFailureIsReturnedButNotKeptAsTheLastGoodValue() throws Exception {
        CircuitBreaker breaker = CircuitBreaker.of("price",
                CircuitBreakerConfig.builder().failOnResult((value) -> ((Integer) value) < 0).build(), this.clock,
                Runnable::run);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("price")
            .timeSource(this.clock)
            .circuitBreaker(breaker)
            .lastGood(new LastGood(new InMemoryLastGoodStore(10, this.clock), Duration.ofHours(1), Integer.class,
                    (call) -> "eth", List.of(), List.of()))
            .build();

        assertThat(pipeline.<Integer>call(() -> 5)).isEqualTo(5);
        assertThat(pipeline.<Integer>call(() -> -1)).isEqualTo(-1);
        ExecutionResult<Integer> served = pipeline.execute(() -> {
            throw new IOException("oracle down");
        });

        assertThat(served.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(served.value()).isEqualTo(5);
        assertThat(served.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, LastGood.FALLBACK_NAME);
        assertThat(breaker.metrics().failedCallsTotal()).isEqualTo(2);
    }

    @Test
    void aValueWhoseJudgementThrowsWhenTheLastGoodValueIsKeptIsNotKept() throws Exception {
        AtomicInteger judgements = new AtomicInteger();
        CircuitBreaker breaker = CircuitBreaker.of("price", CircuitBreakerConfig.builder().failOnResult((value) -> {
            if (judgements.incrementAndGet() > 1) {
                throw new IllegalStateException("price feed gone");
            }
            return false;
        }).build(), this.clock, Runnable::run);
        InMemoryLastGoodStore store = new InMemoryLastGoodStore(10, this.clock);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("price")
            .timeSource(this.clock)
            .circuitBreaker(breaker)
            .lastGood(new LastGood(store, Duration.ofHours(1), Integer.class, (call) -> "eth", List.of(), List.of()))
            .build();

        ExecutionResult<Integer> result = pipeline.execute(() -> 5);

        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.value()).isEqualTo(5);
        assertThat(store.size()).isZero();
    }

}
