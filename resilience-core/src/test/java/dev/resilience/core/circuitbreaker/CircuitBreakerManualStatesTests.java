package dev.resilience.core.circuitbreaker;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static dev.resilience.core.circuitbreaker.BreakerFixture.FAST;
import static dev.resilience.core.circuitbreaker.BreakerFixture.SLOW;
import static dev.resilience.core.circuitbreaker.BreakerFixture.WAIT_IN_OPEN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;

@SuppressWarnings("removal")
class CircuitBreakerManualStatesTests {

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void forcedOpenRejectsEveryCallAndNeverLetsProbesThrough(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        fixture.breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        fixture.clock.advance(WAIT_IN_OPEN.multipliedBy(10));

        assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(fixture.breaker::acquirePermission)
            .satisfies((ex) -> {
                assertThat(ex.state()).isEqualTo(CircuitBreakerState.FORCED_OPEN);
                assertThat(ex.probesAllowedAt()).isNull();
                assertThat(ex).hasMessageContaining("payment-gateway");
            });
        assertThat(fixture.breaker.tryAcquirePermission()).isFalse();
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.FORCED_OPEN);
        assertThat(fixture.breaker.metrics().notPermittedCallsTotal()).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void disabledPermitsEveryCallAndRecordsNothing(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        fixture.breaker.transitionTo(CircuitBreakerState.DISABLED);
        fixture.fail(50);
        fixture.succeedSlowly(50);
        fixture.failIgnored(5);

        CircuitBreakerMetrics metrics = fixture.breaker.metrics();
        assertThat(metrics.state()).isEqualTo(CircuitBreakerState.DISABLED);
        assertThat(metrics.bufferedCalls()).isZero();
        assertThat(metrics.failureRate()).isEqualTo(-1f);
        assertThat(metrics.failedCallsTotal()).isZero();
        assertThat(metrics.successfulCallsTotal()).isZero();
        assertThat(metrics.ignoredCallsTotal()).isZero();
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void manualCloseStartsAFreshWindow(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        fixture.fail(3);
        fixture.breaker.transitionTo(CircuitBreakerState.CLOSED);
        assertThat(fixture.breaker.metrics().bufferedCalls()).isZero();
        fixture.fail(3);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        fixture.fail(1);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);

        fixture.breaker.transitionTo(CircuitBreakerState.CLOSED);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(fixture.breaker.metrics().bufferedCalls()).isZero();
        assertThat(fixture.breaker.metrics().failedCallsTotal()).isEqualTo(7);
    }

    @Test
    void openAndHalfOpenCannotBeEnteredByHand() {
        CircuitBreaker breaker = new BreakerFixture(SlidingWindowType.COUNT).breaker;
        assertThatIllegalArgumentException().isThrownBy(() -> breaker.transitionTo(CircuitBreakerState.OPEN))
            .withMessageContaining("OPEN");
        assertThatIllegalArgumentException().isThrownBy(() -> breaker.transitionTo(CircuitBreakerState.HALF_OPEN))
            .withMessageContaining("HALF_OPEN");
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
    }

    @Test
    void listenerReceivesEveryTransitionOnceInOrder() {
        BreakerFixture fixture = new BreakerFixture(SlidingWindowType.COUNT);
        List<CircuitBreakerTransition> transitions = new ArrayList<>();
        fixture.breaker.addListener(new CircuitBreakerListener() {
            @Override
            public void onStateTransition(CircuitBreakerTransition transition) {
                transitions.add(transition);
            }
        });
        Instant start = fixture.clock.now();

        fixture.open();
        fixture.clock.advance(WAIT_IN_OPEN);
        fixture.fail(3);
        fixture.clock.advance(WAIT_IN_OPEN);
        fixture.succeed(3);
        fixture.breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        fixture.breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        fixture.breaker.transitionTo(CircuitBreakerState.DISABLED);
        fixture.breaker.transitionTo(CircuitBreakerState.CLOSED);
        fixture.breaker.transitionTo(CircuitBreakerState.CLOSED);

        assertThat(transitions)
            .extracting(CircuitBreakerTransition::circuitBreakerName, CircuitBreakerTransition::from,
                    CircuitBreakerTransition::to, CircuitBreakerTransition::at)
            .containsExactly(tuple("payment-gateway", CircuitBreakerState.CLOSED, CircuitBreakerState.OPEN, start),
                    tuple("payment-gateway", CircuitBreakerState.OPEN, CircuitBreakerState.HALF_OPEN,
                            start.plus(WAIT_IN_OPEN)),
                    tuple("payment-gateway", CircuitBreakerState.HALF_OPEN, CircuitBreakerState.OPEN,
                            start.plus(WAIT_IN_OPEN)),
                    tuple("payment-gateway", CircuitBreakerState.OPEN, CircuitBreakerState.HALF_OPEN,
                            start.plus(WAIT_IN_OPEN.multipliedBy(2))),
                    tuple("payment-gateway", CircuitBreakerState.HALF_OPEN, CircuitBreakerState.CLOSED,
                            start.plus(WAIT_IN_OPEN.multipliedBy(2))),
                    tuple("payment-gateway", CircuitBreakerState.CLOSED, CircuitBreakerState.FORCED_OPEN,
                            start.plus(WAIT_IN_OPEN.multipliedBy(2))),
                    tuple("payment-gateway", CircuitBreakerState.FORCED_OPEN, CircuitBreakerState.DISABLED,
                            start.plus(WAIT_IN_OPEN.multipliedBy(2))),
                    tuple("payment-gateway", CircuitBreakerState.DISABLED, CircuitBreakerState.CLOSED,
                            start.plus(WAIT_IN_OPEN.multipliedBy(2))),
                    tuple("payment-gateway", CircuitBreakerState.CLOSED, CircuitBreakerState.CLOSED,
                            start.plus(WAIT_IN_OPEN.multipliedBy(2))));
    }

    @Test
    void listenerIsToldOfEveryRejectedCall() {
        BreakerFixture fixture = new BreakerFixture(SlidingWindowType.COUNT);
        List<Instant> rejections = new ArrayList<>();
        fixture.breaker.addListener(new CircuitBreakerListener() {
            @Override
            public void onCallNotPermitted(String circuitBreakerName, Instant at) {
                assertThat(circuitBreakerName).isEqualTo("payment-gateway");
                rejections.add(at);
            }
        });
        fixture.open();
        assertThat(fixture.breaker.tryAcquirePermission()).isFalse();
        fixture.clock.advance(Duration.ofSeconds(1));
        assertThat(fixture.breaker.tryAcquirePermission()).isFalse();

        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        assertThat(rejections).containsExactly(start, start.plusSeconds(1));
    }

    @Test
    void throwingListenerDoesNotBreakTheBreaker() {
        BreakerFixture fixture = new BreakerFixture(SlidingWindowType.COUNT);
        List<CircuitBreakerState> seenByNextListener = new ArrayList<>();
        fixture.breaker.addListener(new CircuitBreakerListener() {
            @Override
            public void onStateTransition(CircuitBreakerTransition transition) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void onCallNotPermitted(String circuitBreakerName, Instant at) {
                throw new IllegalStateException("listener bug");
            }
        });
        fixture.breaker.addListener(new CircuitBreakerListener() {
            @Override
            public void onStateTransition(CircuitBreakerTransition transition) {
                seenByNextListener.add(transition.to());
            }
        });

        fixture.open();
        assertThat(fixture.breaker.tryAcquirePermission()).isFalse();
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        assertThat(seenByNextListener).containsExactly(CircuitBreakerState.OPEN);
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void metricsShowNoRatesBeforeMinimumCallsAndExactValuesAfter(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(
                BreakerFixture.config(type).minimumCalls(5).failureRateThreshold(60).slowCallRateThreshold(60).build());
        CircuitBreaker breaker = fixture.breaker;
        fixture.succeed(2);
        breaker.acquirePermission();
        breaker.onError(FAST, new IOException("fast failure"));
        breaker.acquirePermission();
        breaker.onError(SLOW, new IOException("slow failure"));

        assertThat(breaker.metrics())
            .isEqualTo(new CircuitBreakerMetrics(CircuitBreakerState.CLOSED, -1f, -1f, 4, 2, 1, 2, 2, 1, 0, 0));
        fixture.succeedSlowly(1);
        fixture.failIgnored(1);
        assertThat(breaker.metrics())
            .isEqualTo(new CircuitBreakerMetrics(CircuitBreakerState.CLOSED, 40f, 40f, 5, 2, 2, 3, 2, 2, 1, 0));
    }

    @Test
    void countWindowSmallerThanMinimumCallsOpensOnceItIsFull() {
        BreakerFixture fixture = new BreakerFixture(
                BreakerFixture.config(SlidingWindowType.COUNT).slidingWindowSize(3).minimumCalls(20).build());
        fixture.fail(2);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        fixture.fail(1);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
    }

    @Test
    void timeWindowNeedsMinimumCallsWhateverItsSize() {
        BreakerFixture fixture = new BreakerFixture(
                BreakerFixture.config(SlidingWindowType.TIME).slidingWindowSize(3).minimumCalls(20).build());
        fixture.fail(19);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        fixture.fail(1);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
    }

}
