package dev.resilience.core.circuitbreaker;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static dev.resilience.core.circuitbreaker.BreakerFixture.FAST;
import static dev.resilience.core.circuitbreaker.BreakerFixture.WAIT_IN_OPEN;
import static org.assertj.core.api.Assertions.assertThat;

class CircuitBreakerResetTests {

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void anOpenBreakerIsResetToClosedWithAnEmptyWindowAndListenersHearIt(SlidingWindowType type) {
        BreakerFixture fixture = new BreakerFixture(type);
        List<CircuitBreakerTransition> transitions = new CopyOnWriteArrayList<>();
        fixture.breaker.addListener(recorder(transitions));
        fixture.open();

        fixture.breaker.reset();

        CircuitBreakerMetrics metrics = fixture.breaker.metrics();
        assertThat(metrics.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(metrics.bufferedCalls()).isZero();
        assertThat(metrics.failedCalls()).isZero();
        assertThat(metrics.failureRate()).isEqualTo(-1f);
        assertThat(metrics.failedCallsTotal()).isEqualTo(4);
        assertThat(transitions).extracting(CircuitBreakerTransition::to)
            .containsExactly(CircuitBreakerState.OPEN, CircuitBreakerState.CLOSED);
        fixture.fail(3);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        fixture.fail(1);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
    }

    private static CircuitBreakerListener recorder(List<CircuitBreakerTransition> transitions) {
        return new CircuitBreakerListener() {

            @Override
            public void onStateTransition(CircuitBreakerTransition transition) {
                transitions.add(transition);
            }

        };
    }

    @Test
    void aClosedBreakerGetsAFreshWindowWithoutATransition() {
        BreakerFixture fixture = new BreakerFixture(SlidingWindowType.COUNT);
        List<CircuitBreakerTransition> transitions = new CopyOnWriteArrayList<>();
        fixture.breaker.addListener(recorder(transitions));
        fixture.fail(3);

        fixture.breaker.reset();

        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(fixture.breaker.metrics().bufferedCalls()).isZero();
        assertThat(transitions).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = CircuitBreakerState.class, names = { "FORCED_OPEN", "DISABLED" })
    void aManualStateIsCleared(CircuitBreakerState manual) {
        BreakerFixture fixture = new BreakerFixture(SlidingWindowType.COUNT);
        fixture.breaker.transitionTo(manual);

        fixture.breaker.reset();

        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        fixture.fail(4);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
    }

    @Test
    void resettingAnOpenBreakerCancelsItsTimerToHalfOpen() {
        BreakerFixture fixture = new BreakerFixture(
                BreakerFixture.config(SlidingWindowType.COUNT).automaticTransitionToHalfOpen(true).build());
        fixture.open();
        assertThat(fixture.clock.pendingTasks()).isOne();

        fixture.breaker.reset();

        assertThat(fixture.clock.pendingTasks()).isZero();
        fixture.clock.advance(WAIT_IN_OPEN);
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
    }

    @Test
    void aCallPermittedBeforeTheResetEndsNormallyAndItsOutcomeStaysOutOfTheFreshWindow() {
        BreakerFixture fixture = new BreakerFixture(SlidingWindowType.COUNT);
        fixture.fail(3);
        CircuitBreaker.Permit inFlight = fixture.breaker.acquirePermit();

        fixture.breaker.reset();
        fixture.breaker.onError(inFlight, FAST, new IOException("down"));

        CircuitBreakerMetrics metrics = fixture.breaker.metrics();
        assertThat(metrics.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(metrics.bufferedCalls()).isZero();
        assertThat(metrics.failedCallsTotal()).isEqualTo(4);
    }

    @Test
    void aProbeOfAHalfOpenStateBeforeTheResetNeitherReopensNorClosesTheFreshBreaker() {
        BreakerFixture fixture = new BreakerFixture(SlidingWindowType.COUNT);
        fixture.openThenWait();
        CircuitBreaker.Permit probe = fixture.breaker.acquirePermit();
        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);

        fixture.breaker.reset();
        fixture.breaker.onError(probe, FAST, new IOException("still down"));

        assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(fixture.breaker.metrics().bufferedCalls()).isZero();
    }

    @Test
    void resetsWhileCallsRunOnOtherThreadsBreakNoCallAndLeaveAConsistentBreaker() throws Exception {
        BreakerFixture fixture = new BreakerFixture(SlidingWindowType.COUNT);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong reported = new AtomicLong();
        CountDownLatch started = new CountDownLatch(4);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> callers = new CopyOnWriteArrayList<>();
            for (int t = 0; t < 4; t++) {
                boolean failing = t % 2 == 0;
                callers.add(threads.submit(() -> {
                    started.countDown();
                    while (running.get()) {
                        CircuitBreaker.Permit permit;
                        try {
                            permit = fixture.breaker.acquirePermit();
                        }
                        catch (CallNotPermittedException ex) {
                            continue;
                        }
                        if (failing) {
                            fixture.breaker.onError(permit, FAST, new IOException("down"));
                        }
                        else {
                            fixture.breaker.onSuccess(permit, FAST);
                        }
                        reported.incrementAndGet();
                    }
                    return null;
                }));
            }
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 2_000; i++) {
                fixture.breaker.reset();
            }
            running.set(false);
            for (Future<?> caller : callers) {
                caller.get(10, TimeUnit.SECONDS);
            }
        }
        finally {
            threads.shutdownNow();
        }
        fixture.breaker.reset();
        CircuitBreakerMetrics metrics = fixture.breaker.metrics();
        assertThat(metrics.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(metrics.bufferedCalls()).isZero();
        assertThat(metrics.successfulCallsTotal() + metrics.failedCallsTotal()).isEqualTo(reported.get());
    }

}
