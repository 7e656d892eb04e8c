package dev.resilience.core.circuitbreaker;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link CircuitBreaker#wouldPermitCall()} answers what the next permission request would
 * get, in every state, without taking a permit, counting or moving the breaker.
 */
@SuppressWarnings("removal")
class CircuitBreakerWouldPermitTests {

    private final BreakerFixture fixture = new BreakerFixture(SlidingWindowType.COUNT);

    private final CircuitBreaker breaker = this.fixture.breaker;

    @Test
    void closedBreakerPermits() {
        this.fixture.fail(3);

        assertThat(this.breaker.wouldPermitCall()).isTrue();
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(this.breaker.metrics().bufferedCalls()).isEqualTo(3);
    }

    @Test
    void openBreakerRefusesUntilItsWaitHasPassedWithoutMovingOrCounting() {
        this.fixture.open();

        assertThat(this.breaker.wouldPermitCall()).isFalse();
        this.fixture.clock.advance(BreakerFixture.WAIT_IN_OPEN.minusNanos(1));
        assertThat(this.breaker.wouldPermitCall()).isFalse();
        this.fixture.clock.advance(Duration.ofNanos(1));
        for (int i = 0; i < 100; i++) {
            assertThat(this.breaker.wouldPermitCall()).isTrue();
        }

        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        assertThat(this.breaker.metrics().notPermittedCallsTotal()).isZero();
        this.breaker.acquirePermit();
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
    }

    @Test
    void askingManyTimesTakesNoProbeOfAnElapsedOpenBreaker() {
        this.fixture.openThenWait();
        for (int i = 0; i < 100; i++) {
            this.breaker.wouldPermitCall();
        }

        assertProbesLeft(3);
    }

    @Test
    void halfOpenBreakerPermitsWhileAProbeIsLeftAndAskingTakesNone() {
        this.fixture.openThenWait();
        this.breaker.acquirePermit();
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        for (int i = 0; i < 100; i++) {
            assertThat(this.breaker.wouldPermitCall()).isTrue();
        }

        assertProbesLeft(2);
        assertThat(this.breaker.wouldPermitCall()).isFalse();
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
    }

    @Test
    void halfOpenBreakerPastItsLongestWaitRefusesWithoutReopening() {
        this.fixture.openThenWait();
        this.breaker.acquirePermit();
        this.fixture.clock.advance(CircuitBreakerConfig.DEFAULT_MAX_WAIT_IN_HALF_OPEN);

        assertThat(this.breaker.wouldPermitCall()).isFalse();
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
    }

    @Test
    void forcedOpenBreakerRefusesAndDisabledOnePermits() {
        this.breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        this.fixture.clock.advance(BreakerFixture.WAIT_IN_OPEN.multipliedBy(10));
        assertThat(this.breaker.wouldPermitCall()).isFalse();

        this.breaker.transitionTo(CircuitBreakerState.DISABLED);
        assertThat(this.breaker.wouldPermitCall()).isTrue();
        assertThat(this.breaker.metrics().notPermittedCallsTotal()).isZero();
    }

    private void assertProbesLeft(int probes) {
        for (int i = 0; i < probes; i++) {
            this.breaker.acquirePermit();
        }
        assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(this.breaker::acquirePermit);
    }

}
