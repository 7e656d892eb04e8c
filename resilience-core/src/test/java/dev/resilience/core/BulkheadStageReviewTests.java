package dev.resilience.core;

import java.time.Duration;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.bulkhead.BulkheadType;
import dev.resilience.core.bulkhead.LimitAlgorithm;
import dev.resilience.core.ratelimiter.RateLimitedException;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Review findings on what an adaptive bulkhead learns from through its stage
 * ({@link BulkheadStage}).
 */
class BulkheadStageReviewTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private Bulkhead adaptive(LimitAlgorithm algorithm) {
        return Bulkhead.of("inventory",
                BulkheadConfig.builder()
                    .type(BulkheadType.ADAPTIVE)
                    .algorithm(algorithm)
                    .maxConcurrentCalls(10)
                    .minLimit(1)
                    .maxLimit(20)
                    .build(),
                this.clock);
    }

    /**
     * Shows that a {@link RateLimitedException} or {@link BulkheadFullException} thrown
     * from inside the action (a nested protected call refused at once) lowers an adaptive
     * limit as an overloaded call would: DESIGN 12 says such refusals are no outcome of
     * the protected service (the breaker gives its permit back without recording them),
     * and the refusal took no time.
     */
    @ParameterizedTest
    @EnumSource(LimitAlgorithm.class)
    void aNestedRefusalFromInsideTheActionDoesNotLowerAnAdaptiveLimit(LimitAlgorithm algorithm) {
        Bulkhead bulkhead = adaptive(algorithm);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(this.clock)
            .bulkhead(bulkhead)
            .build();

        for (int i = 0; i < 5; i++) {
            pipeline.execute(() -> {
                throw new RateLimitedException("inner", Duration.ofSeconds(1));
            });
            pipeline.execute(() -> {
                throw new BulkheadFullException("inner", 1);
            });
        }

        assertThat(bulkhead.limit()).as("the adaptive limit after ten nested refusals").isEqualTo(10);
    }

    /**
     * Shows that a synchronous call whose thread was interrupted (its caller gave up, the
     * synchronous form of a cancellation) lowers an adaptive limit as an overloaded call
     * would, where a cancelled asynchronous call gives its permit back without a sample
     * ({@link Bulkhead#release}: a call that ended without an outcome teaches nothing).
     */
    @ParameterizedTest
    @EnumSource(LimitAlgorithm.class)
    void anInterruptedSynchronousCallDoesNotLowerAnAdaptiveLimit(LimitAlgorithm algorithm) {
        Bulkhead bulkhead = adaptive(algorithm);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(this.clock)
            .bulkhead(bulkhead)
            .build();

        for (int i = 0; i < 5; i++) {
            ExecutionResult<String> result = pipeline.execute(() -> {
                throw new InterruptedException("caller gave up");
            });
            assertThat(result.error()).isInstanceOf(InterruptedException.class);
            assertThat(Thread.interrupted()).as("the flag set again").isTrue();
        }

        assertThat(bulkhead.limit()).as("the adaptive limit after five interrupted calls").isEqualTo(10);
    }

}
