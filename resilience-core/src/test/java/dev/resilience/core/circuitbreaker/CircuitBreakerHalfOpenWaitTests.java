package dev.resilience.core.circuitbreaker;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.resilience.core.time.ScheduledTask;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

/**
 * A HALF_OPEN breaker waits at most {@code maxWaitInHalfOpen} for its probes, decided
 * when it is next used (no automatic transitions here).
 */
@SuppressWarnings("removal")
class CircuitBreakerHalfOpenWaitTests {

    private static final long FAST = Duration.ofMillis(5).toNanos();

    private static final Duration WAIT_IN_OPEN = Duration.ofSeconds(30);

    private static final Duration MAX_WAIT_IN_HALF_OPEN = Duration.ofSeconds(60);

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final Instant start = this.clock.now();

    private final List<CircuitBreakerTransition> transitions = new ArrayList<>();

    private CircuitBreaker breaker = breaker(1);

    /**
     * Issue item 5: one HALF_OPEN probe that never completed left the breaker HALF_OPEN
     * for 24 h of virtual time, rejecting every call.
     */
    @Test
    void probeThatNeverReportsSendsTheBreakerBackToOpenAndItsLateOutcomeDecidesNothing() {
        open();
        this.clock.advance(WAIT_IN_OPEN);
        CircuitBreaker.Permit hung = this.breaker.acquirePermit();

        this.clock.advance(MAX_WAIT_IN_HALF_OPEN.minusNanos(1));
        assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(this.breaker::acquirePermit)
            .satisfies((ex) -> assertThat(ex.state()).isEqualTo(CircuitBreakerState.HALF_OPEN));
        this.clock.advance(Duration.ofNanos(1));
        Instant reopenedAt = this.clock.now();
        assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(this.breaker::acquirePermit)
            .satisfies((ex) -> {
                assertThat(ex.state()).isEqualTo(CircuitBreakerState.OPEN);
                assertThat(ex.probesAllowedAt()).isEqualTo(reopenedAt.plus(WAIT_IN_OPEN));
            });
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);

        this.clock.advance(WAIT_IN_OPEN.minusNanos(1));
        assertThat(this.breaker.tryAcquirePermission()).isFalse();
        this.clock.advance(Duration.ofNanos(1));
        CircuitBreaker.Permit probe = this.breaker.acquirePermit();
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);

        this.breaker.onError(hung, FAST, new IOException("answered after three minutes"));
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        assertThat(this.breaker.metrics().bufferedCalls()).isZero();
        assertThat(this.breaker.metrics().failedCallsTotal()).isEqualTo(2);

        this.breaker.onSuccess(probe, FAST);
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(this.breaker.metrics().notPermittedCallsTotal()).isEqualTo(3);
        assertThat(this.transitions)
            .extracting(CircuitBreakerTransition::from, CircuitBreakerTransition::to, CircuitBreakerTransition::at)
            .containsExactly(tuple(CircuitBreakerState.CLOSED, CircuitBreakerState.OPEN, this.start),
                    tuple(CircuitBreakerState.OPEN, CircuitBreakerState.HALF_OPEN, this.start.plusSeconds(30)),
                    tuple(CircuitBreakerState.HALF_OPEN, CircuitBreakerState.OPEN, this.start.plusSeconds(90)),
                    tuple(CircuitBreakerState.OPEN, CircuitBreakerState.HALF_OPEN, this.start.plusSeconds(120)),
                    tuple(CircuitBreakerState.HALF_OPEN, CircuitBreakerState.CLOSED, this.start.plusSeconds(120)));
    }

    @Test
    void probesThatAllReportJustBeforeTheLongestWaitDecideAsUsual() {
        open();
        this.clock.advance(WAIT_IN_OPEN);
        CircuitBreaker.Permit probe = this.breaker.acquirePermit();
        this.clock.advance(MAX_WAIT_IN_HALF_OPEN.minusNanos(1));

        this.breaker.onSuccess(probe, FAST);

        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(this.breaker.metrics().successfulCallsTotal()).isEqualTo(1);
    }

    @Test
    void outcomeReportedOnceTheLongestWaitHasPassedIsIgnoredAndOpensTheBreaker() {
        open();
        this.clock.advance(WAIT_IN_OPEN);
        CircuitBreaker.Permit probe = this.breaker.acquirePermit();
        this.clock.advance(MAX_WAIT_IN_HALF_OPEN);

        this.breaker.onSuccess(probe, FAST);

        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        assertThat(this.breaker.metrics().successfulCallsTotal()).isZero();
        assertThat(this.transitions).extracting(CircuitBreakerTransition::to, CircuitBreakerTransition::at)
            .containsExactly(tuple(CircuitBreakerState.OPEN, this.start),
                    tuple(CircuitBreakerState.HALF_OPEN, this.start.plusSeconds(30)),
                    tuple(CircuitBreakerState.OPEN, this.start.plusSeconds(90)));
        assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(this.breaker::acquirePermit)
            .satisfies((ex) -> assertThat(ex.probesAllowedAt()).isEqualTo(this.start.plusSeconds(120)));
    }

    @Test
    void ignoredErrorOfALateProbeIsNotCounted() {
        open();
        this.clock.advance(WAIT_IN_OPEN);
        CircuitBreaker.Permit probe = this.breaker.acquirePermit();
        this.clock.advance(MAX_WAIT_IN_HALF_OPEN);
        this.breaker.transitionTo(CircuitBreakerState.DISABLED);

        this.breaker.onError(probe, FAST, new IllegalStateException("ignored"));

        assertThat(this.breaker.metrics().ignoredCallsTotal()).isZero();
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.DISABLED);
    }

    @Test
    void halfOpenThatExpiresKeepsTheCountsOfTheProbesThatReported() {
        this.breaker = breaker(3);
        open();
        this.clock.advance(WAIT_IN_OPEN);
        CircuitBreaker.Permit succeeded = this.breaker.acquirePermit();
        CircuitBreaker.Permit failed = this.breaker.acquirePermit();
        this.breaker.acquirePermit();
        this.breaker.onSuccess(succeeded, FAST);
        this.breaker.onError(failed, FAST, new IOException("still down"));
        this.clock.advance(MAX_WAIT_IN_HALF_OPEN);

        assertThat(this.breaker.tryAcquirePermission()).isFalse();

        CircuitBreakerMetrics metrics = this.breaker.metrics();
        assertThat(metrics.state()).isEqualTo(CircuitBreakerState.OPEN);
        assertThat(metrics.bufferedCalls()).isEqualTo(2);
        assertThat(metrics.failedCalls()).isEqualTo(1);
        assertThat(metrics.failureRate()).isEqualTo(-1f);
    }

    @Test
    void halfOpenExpiresEvenWhenProbesAreLeftUntaken() {
        this.breaker = breaker(3);
        open();
        this.clock.advance(WAIT_IN_OPEN);
        this.breaker.onSuccess(this.breaker.acquirePermit(), FAST);
        this.clock.advance(MAX_WAIT_IN_HALF_OPEN);

        assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(this.breaker::acquirePermit)
            .satisfies((ex) -> assertThat(ex.state()).isEqualTo(CircuitBreakerState.OPEN));
    }

    @Test
    void withoutAutomaticTransitionsNoTimerIsSetAndTheStateMovesOnlyWhenAsked() {
        open();
        this.clock.advance(WAIT_IN_OPEN.plus(MAX_WAIT_IN_HALF_OPEN).multipliedBy(10));
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        this.breaker.acquirePermit();
        this.clock.advance(MAX_WAIT_IN_HALF_OPEN.multipliedBy(10));

        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void permissionRequestEndsWhenEveryStateHasOutwaitedItsTimeByTheTimeItIsAsked() {
        TimeSource ticking = new TimeSource() {

            private final AtomicLong ticks = new AtomicLong();

            @Override
            public long nanoTime() {
                long now = this.ticks.incrementAndGet();
                assertThat(now).as("clock reads").isLessThan(10_000);
                return now;
            }

            @Override
            public Instant now() {
                return Instant.EPOCH.plusNanos(nanoTime());
            }

            @Override
            public void sleep(Duration duration) {
                throw new UnsupportedOperationException();
            }

            @Override
            public ScheduledTask schedule(Runnable task, Duration delay) {
                throw new UnsupportedOperationException();
            }
        };
        CircuitBreaker nanosecondWaits = CircuitBreaker.of("payment-gateway",
                CircuitBreakerConfig.builder()
                    .slidingWindowSize(1)
                    .minimumCalls(1)
                    .waitInOpen(Duration.ofNanos(1))
                    .maxWaitInHalfOpen(Duration.ofNanos(1))
                    .build(),
                ticking);
        nanosecondWaits.onError(nanosecondWaits.acquirePermit(), FAST, new IOException("down"));

        assertThat(nanosecondWaits.tryAcquirePermission()).isFalse();
        assertThat(nanosecondWaits.metrics().notPermittedCallsTotal()).isEqualTo(1);
    }

    private CircuitBreaker breaker(int halfOpenCalls) {
        CircuitBreaker created = CircuitBreaker.of("payment-gateway",
                CircuitBreakerConfig.builder()
                    .slidingWindowSize(2)
                    .minimumCalls(2)
                    .waitInOpen(WAIT_IN_OPEN)
                    .halfOpenCalls(halfOpenCalls)
                    .maxWaitInHalfOpen(MAX_WAIT_IN_HALF_OPEN)
                    .ignoreOn(List.of(IllegalStateException.class))
                    .build(),
                this.clock);
        created.addListener(new CircuitBreakerListener() {
            @Override
            public void onStateTransition(CircuitBreakerTransition transition) {
                CircuitBreakerHalfOpenWaitTests.this.transitions.add(transition);
            }
        });
        return created;
    }

    private void open() {
        for (int i = 0; i < 2; i++) {
            this.breaker.onError(this.breaker.acquirePermit(), FAST, new IOException("down"));
        }
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
    }

}
