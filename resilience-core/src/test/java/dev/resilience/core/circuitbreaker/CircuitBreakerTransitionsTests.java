package dev.resilience.core.circuitbreaker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static dev.resilience.core.circuitbreaker.BreakerFixture.FAST;
import static dev.resilience.core.circuitbreaker.BreakerFixture.SLOW;
import static dev.resilience.core.circuitbreaker.BreakerFixture.WAIT_IN_OPEN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@SuppressWarnings("removal")
class CircuitBreakerTransitionsTests {

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void opensWhenFailureRateReachesThresholdWithMinimumCalls(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        fixture.succeed(2);
        fixture.fail(1);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        fixture.fail(1);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void opensWhenSlowCallRateReachesThresholdEvenIfAllCallsSucceed(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        fixture.succeed(2);
        fixture.succeedSlowly(1);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        fixture.succeedSlowly(1);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        assertThat(fixture.breaker.metrics().failureRate()).isZero();
        assertThat(fixture.breaker.metrics().slowCallRate()).isEqualTo(50f);
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void staysClosedWithFewerThanMinimumCallsEvenIfAllFail(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        fixture.fail(3);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(fixture.breaker.metrics().failureRate()).isEqualTo(-1f);
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void staysClosedWhileRatesStayBelowThresholds(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        fixture.succeed(5);
        fixture.fail(4);
        fixture.succeedSlowly(1);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(fixture.breaker.metrics().failureRate()).isEqualTo(40f);
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void ignoredExceptionsCountNeitherAsFailuresNorAsSuccesses(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        fixture.failIgnored(10);
        assertThat(fixture.breaker.metrics().bufferedCalls()).isZero();
        assertThat(fixture.breaker.metrics().ignoredCallsTotal()).isEqualTo(10);
        fixture.fail(3);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        fixture.fail(1);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        assertThat(fixture.breaker.metrics().successfulCallsTotal()).isZero();
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void onlyRecordOnExceptionsCountAsFailuresAndOthersAsSuccesses(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(
                BreakerFixture.config(type).recordOn(List.of(IOException.class)).build());
        CircuitBreaker breaker = fixture.breaker;
        for (int i = 0; i < 4; i++) {
            breaker.acquirePermission();
            breaker.onError(FAST, new UncheckedIOException(new IOException("wrapped")));
        }
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(breaker.metrics().failedCalls()).isZero();
        assertThat(breaker.metrics().successfulCallsTotal()).isEqualTo(4);
        fixture.fail(4);
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        assertThat(breaker.metrics().failedCallsTotal()).isEqualTo(4);
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void openRejectsCallsUntilWaitInOpenHasPassed(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        fixture.clock.advance(Duration.ofSeconds(5));
        Instant openedAt = fixture.clock.now();
        fixture.open();

        fixture.clock.advance(WAIT_IN_OPEN.minusNanos(1));
        assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(fixture.breaker::acquirePermission)
            .satisfies((ex) -> {
                assertThat(ex.circuitBreakerName()).isEqualTo("payment-gateway");
                assertThat(ex.state()).isEqualTo(CircuitBreakerState.OPEN);
                assertThat(ex.probesAllowedAt()).isEqualTo(openedAt.plus(WAIT_IN_OPEN));
                assertThat(ex).hasMessageContaining("payment-gateway")
                    .hasMessageContaining(openedAt.plus(WAIT_IN_OPEN).toString());
                assertThat(ex.getStackTrace()).isEmpty();
            });
        assertThat(fixture.breaker.tryAcquirePermission()).isFalse();
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        assertThat(fixture.breaker.metrics().notPermittedCallsTotal()).isEqualTo(2);

        fixture.clock.advance(Duration.ofNanos(1));
        assertThat(fixture.breaker.tryAcquirePermission()).isTrue();
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void openKeepsTheCountsThatOpenedIt(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        fixture.succeed(1);
        fixture.fail(3);
        CircuitBreakerMetrics metrics = fixture.breaker.metrics();
        assertThat(metrics.state()).isEqualTo(CircuitBreakerState.OPEN);
        assertThat(metrics.failureRate()).isEqualTo(75f);
        assertThat(metrics.bufferedCalls()).isEqualTo(4);
        assertThat(metrics.failedCalls()).isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void halfOpenLetsExactlyTheProbesThroughAndClosesWhenTheySucceed(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        fixture.openThenWait();
        CircuitBreaker breaker = fixture.breaker;
        for (int i = 0; i < 3; i++) {
            breaker.acquirePermission();
        }
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(breaker::acquirePermission)
            .satisfies((ex) -> {
                assertThat(ex.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
                assertThat(ex.probesAllowedAt()).isNull();
            });
        breaker.onSuccess(FAST);
        breaker.onError(FAST, new IOException("still flaky"));
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        assertThat(breaker.metrics().failureRate()).isEqualTo(-1f);
        assertThat(breaker.metrics().bufferedCalls()).isEqualTo(2);
        breaker.onSuccess(FAST);

        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(breaker.metrics().bufferedCalls()).isZero();
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void halfOpenReopensWhenProbesFail(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        fixture.openThenWait();
        fixture.succeed(1);
        fixture.fail(2);

        CircuitBreakerMetrics metrics = fixture.breaker.metrics();
        assertThat(metrics.state()).isEqualTo(CircuitBreakerState.OPEN);
        assertThat(metrics.bufferedCalls()).isEqualTo(3);
        assertThat(metrics.failedCalls()).isEqualTo(2);
        assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(fixture.breaker::acquirePermission)
            .satisfies((ex) -> assertThat(ex.probesAllowedAt()).isEqualTo(fixture.clock.now().plus(WAIT_IN_OPEN)));
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void halfOpenReopensWhenProbesAreSlow(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        fixture.openThenWait();
        fixture.succeedSlowly(2);
        fixture.succeed(1);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        assertThat(fixture.breaker.metrics().slowCalls()).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void ignoredErrorOfAProbeGivesItsPermitBack(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        fixture.openThenWait();
        CircuitBreaker breaker = fixture.breaker;
        for (int i = 0; i < 3; i++) {
            breaker.acquirePermission();
        }
        breaker.onError(FAST, new IllegalStateException("ignored"));
        assertThat(breaker.metrics().ignoredCallsTotal()).isEqualTo(1);
        assertThat(breaker.tryAcquirePermission()).isTrue();
        assertThat(breaker.tryAcquirePermission()).isFalse();
        breaker.onSuccess(FAST);
        breaker.onSuccess(FAST);
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        breaker.onSuccess(FAST);
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void releasedProbePermitLetsAnotherProbeThrough(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        fixture.openThenWait();
        CircuitBreaker breaker = fixture.breaker;
        for (int i = 0; i < 3; i++) {
            breaker.acquirePermission();
        }
        breaker.releasePermission();
        breaker.releasePermission();
        assertThat(breaker.tryAcquirePermission()).isTrue();
        assertThat(breaker.tryAcquirePermission()).isTrue();
        assertThat(breaker.tryAcquirePermission()).isFalse();
        assertThat(breaker.metrics().bufferedCalls()).isZero();
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void releasingMorePermitsThanTakenLetsNoExtraProbeThrough(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        fixture.openThenWait();
        CircuitBreaker breaker = fixture.breaker;
        breaker.acquirePermission();
        breaker.releasePermission();
        breaker.releasePermission();
        breaker.onSuccess(FAST);
        for (int i = 0; i < 3; i++) {
            breaker.acquirePermission();
        }
        assertThat(breaker.tryAcquirePermission()).isFalse();
        assertThat(breaker.metrics().bufferedCalls()).isZero();
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void slowCallThatEndsAfterTheBreakerOpenedIsDropped(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        CircuitBreaker breaker = fixture.breaker;
        breaker.acquirePermission();
        fixture.open();
        CircuitBreakerMetrics whenOpened = breaker.metrics();

        breaker.onSuccess(SLOW);

        assertThat(breaker.metrics()).isEqualTo(whenOpened);
        fixture.clock.advance(WAIT_IN_OPEN);
        assertThat(breaker.tryAcquirePermission()).isTrue();
        breaker.onError(SLOW, new IOException("probe failed"));
        assertThat(breaker.metrics().bufferedCalls()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void halfOpenRecordsNoMoreOutcomesThanProbesItLetThrough(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        CircuitBreaker breaker = fixture.breaker;
        breaker.acquirePermission();
        breaker.acquirePermission();
        fixture.openThenWait();
        breaker.acquirePermission();
        breaker.onSuccess(SLOW);
        breaker.onSuccess(SLOW);

        CircuitBreakerMetrics metrics = breaker.metrics();
        assertThat(metrics.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        assertThat(metrics.bufferedCalls()).isEqualTo(1);
        assertThat(metrics.slowCallsTotal()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void callFromAnEarlierClosedStateIsRecordedInTheNextClosedWindow(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        CircuitBreaker breaker = fixture.breaker;
        breaker.acquirePermission();
        breaker.transitionTo(CircuitBreakerState.CLOSED);
        breaker.onError(FAST, new IOException("late"));
        assertThat(breaker.metrics().bufferedCalls()).isEqualTo(1);
        assertThat(breaker.metrics().failedCalls()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void everyChangeOfStateIsCountedResetsAndForcedMovesIncluded(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        CircuitBreaker breaker = fixture.breaker;
        breaker.reset();
        assertThat(breaker.stateChanges()).as("a reset of a CLOSED breaker, which stays CLOSED").isZero();

        fixture.openThenWait();
        assertThat(breaker.stateChanges()).as("to OPEN").isOne();
        fixture.succeed(1);
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        assertThat(breaker.stateChanges()).as("to HALF_OPEN").isEqualTo(2);
        breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        breaker.reset();

        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(breaker.stateChanges()).as("forced open, then reset to CLOSED").isEqualTo(4);
    }

}
