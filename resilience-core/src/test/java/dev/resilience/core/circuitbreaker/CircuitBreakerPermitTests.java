package dev.resilience.core.circuitbreaker;

import java.io.IOException;
import java.time.Duration;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@SuppressWarnings("removal")
class CircuitBreakerPermitTests {

    private static final long FAST = Duration.ofMillis(5).toNanos();

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final CircuitBreaker breaker = CircuitBreaker.of("gateway",
            CircuitBreakerConfig.builder()
                .slidingWindowSize(2)
                .minimumCalls(2)
                .failureRateThreshold(50)
                .waitInOpen(Duration.ofSeconds(10))
                .halfOpenCalls(1)
                .build(),
            this.clock);

    private void openWithFailures() {
        for (int i = 0; i < 2; i++) {
            this.breaker.onError(this.breaker.acquirePermit(), FAST, new IOException("down"));
        }
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
    }

    @Test
    void halfOpenDecidesOnItsOwnProbesNotOnCallsPermittedBeforeIt() {
        CircuitBreaker.Permit slowCallFromClosed = this.breaker.acquirePermit();
        openWithFailures();
        this.clock.advance(Duration.ofSeconds(10));
        CircuitBreaker.Permit probe = this.breaker.acquirePermit();
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);

        this.breaker.onSuccess(slowCallFromClosed, FAST);
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);

        this.breaker.onError(probe, FAST, new IOException("still down"));
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
    }

    @Test
    void outcomeReportedWithoutAPermitIsRecordedByTheCurrentState() {
        this.breaker.acquirePermission();
        openWithFailures();
        this.clock.advance(Duration.ofSeconds(10));
        this.breaker.acquirePermission();

        this.breaker.onSuccess(FAST);

        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
    }

    @Test
    void halfOpenRejectsCallsBeyondItsProbesAndClosesOnASuccessfulProbe() {
        openWithFailures();
        assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(this.breaker::acquirePermit)
            .satisfies((ex) -> assertThat(ex.probesAllowedAt()).isEqualTo(this.clock.now().plusSeconds(10)));
        this.clock.advance(Duration.ofSeconds(10));
        CircuitBreaker.Permit probe = this.breaker.acquirePermit();

        assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(this.breaker::acquirePermit)
            .satisfies((ex) -> assertThat(ex.state()).isEqualTo(CircuitBreakerState.HALF_OPEN));
        this.breaker.onSuccess(probe, FAST);
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(this.breaker.metrics().notPermittedCallsTotal()).isEqualTo(2);
    }

}
