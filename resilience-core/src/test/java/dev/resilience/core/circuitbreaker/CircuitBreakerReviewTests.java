package dev.resilience.core.circuitbreaker;

import java.io.IOException;
import java.time.Duration;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Review findings on the circuit breaker's result predicate.
 */
class CircuitBreakerReviewTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    /**
     * Shows that a {@code failOnResult} predicate throwing an {@link Error} leaves a
     * half-open probe's permit neither recorded nor given back, so the breaker refuses
     * every call until its longest wait in half open has passed.
     */
    @Test
    void onResultSettlesTheProbesPermitWhenThePredicateThrowsAnError() {
        CircuitBreaker breaker = CircuitBreaker.of("quotes",
                CircuitBreakerConfig.builder()
                    .slidingWindowSize(2)
                    .minimumCalls(2)
                    .failureRateThreshold(50)
                    .waitInOpen(Duration.ofSeconds(1))
                    .halfOpenCalls(1)
                    .failOnResult((value) -> {
                        if ("poison".equals(value)) {
                            throw new AssertionError("predicate broke");
                        }
                        return false;
                    })
                    .build(),
                this.clock);
        for (int i = 0; i < 2; i++) {
            breaker.onError(breaker.acquirePermit(), 1, new IOException("down"));
        }
        this.clock.advance(Duration.ofSeconds(1));
        CircuitBreaker.Permit probe = breaker.acquirePermit();
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);

        assertThatThrownBy(() -> breaker.onResult(probe, 1, "poison")).isInstanceOf(AssertionError.class);

        assertThat(breaker.state() != CircuitBreakerState.HALF_OPEN || breaker.wouldPermitCall())
            .as("the probe was recorded (breaker left HALF_OPEN) or given back (another probe may run); state "
                    + breaker.state())
            .isTrue();
    }

}
