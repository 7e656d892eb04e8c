package dev.resilience.core;

import java.time.Duration;

import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Review findings on the time limiter ({@link AttemptTimeoutStage}).
 */
class AttemptTimeoutStageReviewTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    /**
     * Shows that with a clock reading just before {@link Long#MAX_VALUE}, an attempt's
     * time limit is cut by a deadline saturated at {@code Long.MAX_VALUE - 1} to the few
     * nanoseconds left before the wrap: a 5ms attempt under a 1s time limit and a 10s
     * deadline ends as a TIMEOUT.
     */
    @Test
    void anAttemptStartedJustBeforeTheClockWrapsKeepsItsWholeTimeLimit() {
        ResiliencePipeline pipeline = ResiliencePipeline.builder("stock")
            .timeSource(new ClockNearWrap(this.clock, Duration.ofMillis(1).toNanos()))
            .retry(RetryPolicy.builder().maxAttempts(1).maxDuration(Duration.ofSeconds(10)).build())
            .timeLimit(Duration.ofSeconds(1))
            .build();

        ExecutionResult<String> result = pipeline.execute(() -> {
            this.clock.advance(Duration.ofMillis(5));
            return "ok";
        });

        assertThat(result.status()).as("a 5ms attempt under a 1s limit: " + result.error())
            .isEqualTo(ExecutionStatus.SUCCESS);
    }

}
