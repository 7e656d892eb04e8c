package dev.resilience.core.circuitbreaker;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import dev.resilience.core.time.ScheduledTask;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * With {@code automaticTransitionToHalfOpen}, an OPEN breaker moves to HALF_OPEN at
 * exactly {@code waitInOpen}, and a HALF_OPEN one back to OPEN at exactly
 * {@code maxWaitInHalfOpen}, without a call, on a timer that hands the move to the
 * breaker's executor.
 */
@SuppressWarnings("removal")
class CircuitBreakerAutomaticTransitionTests {

    private static final long FAST = Duration.ofMillis(5).toNanos();

    private static final Duration WAIT_IN_OPEN = Duration.ofSeconds(30);

    private static final Duration MAX_WAIT_IN_HALF_OPEN = Duration.ofSeconds(60);

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final Instant start = this.clock.now();

    private final List<CircuitBreakerTransition> transitions = new ArrayList<>();

    private CircuitBreaker breaker = breaker(this.clock, Runnable::run);

    @Test
    void openMovesToHalfOpenAtExactlyTheWaitInOpenWithoutACallAndTellsListenersOnce() {
        open();
        this.clock.advance(WAIT_IN_OPEN.minusNanos(1));
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);

        this.clock.advance(Duration.ofNanos(1));

        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        this.clock.advance(MAX_WAIT_IN_HALF_OPEN.minusNanos(1));
        assertThat(this.breaker.metrics().state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        assertThat(this.breaker.metrics().notPermittedCallsTotal()).isZero();
        assertThat(this.transitions)
            .extracting(CircuitBreakerTransition::from, CircuitBreakerTransition::to, CircuitBreakerTransition::at)
            .containsExactly(tuple(CircuitBreakerState.CLOSED, CircuitBreakerState.OPEN, this.start),
                    tuple(CircuitBreakerState.OPEN, CircuitBreakerState.HALF_OPEN, this.start.plusSeconds(30)));
    }

    @Test
    void hungProbeSendsTheBreakerBackToOpenOnTheTimerAndANewProbeDecides() {
        open();
        this.clock.advance(WAIT_IN_OPEN);
        CircuitBreaker.Permit hung = this.breaker.acquirePermit();

        this.clock.advance(MAX_WAIT_IN_HALF_OPEN);
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        this.clock.advance(WAIT_IN_OPEN);
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        CircuitBreaker.Permit probe = this.breaker.acquirePermit();
        this.breaker.onError(hung, FAST, new IOException("answered after two minutes"));
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        this.breaker.onSuccess(probe, FAST);

        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(this.breaker.metrics().failedCallsTotal()).isEqualTo(2);
        assertThat(this.breaker.metrics().notPermittedCallsTotal()).isZero();
        assertThat(this.transitions)
            .extracting(CircuitBreakerTransition::from, CircuitBreakerTransition::to, CircuitBreakerTransition::at)
            .containsExactly(tuple(CircuitBreakerState.CLOSED, CircuitBreakerState.OPEN, this.start),
                    tuple(CircuitBreakerState.OPEN, CircuitBreakerState.HALF_OPEN, this.start.plusSeconds(30)),
                    tuple(CircuitBreakerState.HALF_OPEN, CircuitBreakerState.OPEN, this.start.plusSeconds(90)),
                    tuple(CircuitBreakerState.OPEN, CircuitBreakerState.HALF_OPEN, this.start.plusSeconds(120)),
                    tuple(CircuitBreakerState.HALF_OPEN, CircuitBreakerState.CLOSED, this.start.plusSeconds(120)));
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void breakerMovedByHandWhileOpenOrHalfOpenStaysWhereItWasPut() {
        open();
        this.clock.advance(Duration.ofSeconds(10));
        this.breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        assertThat(this.clock.pendingTasks()).isZero();
        this.clock.advance(Duration.ofHours(1));
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.FORCED_OPEN);

        this.breaker.transitionTo(CircuitBreakerState.CLOSED);
        open();
        this.clock.advance(WAIT_IN_OPEN.plusSeconds(10));
        this.breaker.transitionTo(CircuitBreakerState.DISABLED);
        this.clock.advance(Duration.ofHours(1));

        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.DISABLED);
        assertThat(this.transitions).extracting(CircuitBreakerTransition::to)
            .containsExactly(CircuitBreakerState.OPEN, CircuitBreakerState.FORCED_OPEN, CircuitBreakerState.CLOSED,
                    CircuitBreakerState.OPEN, CircuitBreakerState.HALF_OPEN, CircuitBreakerState.DISABLED);
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void timerThatFiresAfterItsStateWasLeftDoesNothing() {
        this.breaker = breaker(new InterceptedTimers(this.clock, false), Runnable::run);
        open();
        this.clock.advance(Duration.ofSeconds(10));
        this.breaker.transitionTo(CircuitBreakerState.CLOSED);
        open();
        this.clock.advance(Duration.ofSeconds(20));
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        this.clock.advance(Duration.ofSeconds(10));
        this.breaker.onSuccess(this.breaker.acquirePermit(), FAST);
        open();
        this.clock.advance(WAIT_IN_OPEN);
        this.clock.advance(Duration.ofSeconds(20));
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        this.clock.advance(Duration.ofSeconds(40));

        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        assertThat(this.transitions)
            .extracting(CircuitBreakerTransition::from, CircuitBreakerTransition::to, CircuitBreakerTransition::at)
            .containsExactly(tuple(CircuitBreakerState.CLOSED, CircuitBreakerState.OPEN, this.start),
                    tuple(CircuitBreakerState.OPEN, CircuitBreakerState.CLOSED, this.start.plusSeconds(10)),
                    tuple(CircuitBreakerState.CLOSED, CircuitBreakerState.OPEN, this.start.plusSeconds(10)),
                    tuple(CircuitBreakerState.OPEN, CircuitBreakerState.HALF_OPEN, this.start.plusSeconds(40)),
                    tuple(CircuitBreakerState.HALF_OPEN, CircuitBreakerState.CLOSED, this.start.plusSeconds(40)),
                    tuple(CircuitBreakerState.CLOSED, CircuitBreakerState.OPEN, this.start.plusSeconds(40)),
                    tuple(CircuitBreakerState.OPEN, CircuitBreakerState.HALF_OPEN, this.start.plusSeconds(70)),
                    tuple(CircuitBreakerState.HALF_OPEN, CircuitBreakerState.OPEN, this.start.plusSeconds(130)));
    }

    @Test
    void stateLeftWhileItsTimerIsBeingSetKeepsNoTimer() {
        InterceptedTimers timers = new InterceptedTimers(this.clock, true);
        this.breaker = breaker(timers, Runnable::run);
        timers.beforeNextSchedule = () -> this.breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);

        for (int i = 0; i < 2; i++) {
            this.breaker.onError(this.breaker.acquirePermit(), FAST, new IOException("down"));
        }

        assertThat(this.transitions).extracting(CircuitBreakerTransition::to)
            .containsExactly(CircuitBreakerState.FORCED_OPEN, CircuitBreakerState.OPEN);
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.FORCED_OPEN);
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void timerHandsTheTransitionToTheExecutorAndRunsNoListenerItself() {
        List<Runnable> handedOver = new ArrayList<>();
        this.breaker = breaker(this.clock, handedOver::add);
        open();

        this.clock.advance(WAIT_IN_OPEN);

        assertThat(handedOver).hasSize(1);
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        assertThat(this.transitions).extracting(CircuitBreakerTransition::to).containsExactly(CircuitBreakerState.OPEN);
        this.clock.advance(Duration.ofSeconds(1));
        handedOver.get(0).run();
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        assertThat(this.transitions).extracting(CircuitBreakerTransition::to, CircuitBreakerTransition::at)
            .containsExactly(tuple(CircuitBreakerState.OPEN, this.start),
                    tuple(CircuitBreakerState.HALF_OPEN, this.start.plusSeconds(31)));
    }

    @Test
    void transitionHandedOverAfterACallMadeItDoesNothing() {
        List<Runnable> handedOver = new ArrayList<>();
        this.breaker = breaker(this.clock, handedOver::add);
        open();
        this.clock.advance(WAIT_IN_OPEN);
        CircuitBreaker.Permit probe = this.breaker.acquirePermit();

        handedOver.forEach(Runnable::run);

        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        this.breaker.onSuccess(probe, FAST);
        assertThat(this.transitions).extracting(CircuitBreakerTransition::to)
            .containsExactly(CircuitBreakerState.OPEN, CircuitBreakerState.HALF_OPEN, CircuitBreakerState.CLOSED);
    }

    @Test
    void executorThatRefusesTheTransitionLeavesItToTheNextCall() {
        Executor refusing = (task) -> {
            throw new RejectedExecutionException("shut down");
        };
        this.breaker = breaker(this.clock, refusing);
        open();

        this.clock.advance(WAIT_IN_OPEN);
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);

        assertThat(this.breaker.tryAcquirePermission()).isTrue();
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
    }

    @Test
    void callsSetNoTimersOfTheirOwn() {
        open();
        for (int i = 0; i < 1_000; i++) {
            assertThat(this.breaker.tryAcquirePermission()).isFalse();
        }
        assertThat(this.clock.pendingTasks()).isEqualTo(1);

        this.clock.advance(WAIT_IN_OPEN);
        for (int i = 0; i < 1_000; i++) {
            this.breaker.tryAcquirePermission();
        }
        assertThat(this.clock.pendingTasks()).isEqualTo(1);

        this.breaker.onSuccess(FAST);
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        for (int i = 0; i < 1_000; i++) {
            this.breaker.onSuccess(this.breaker.acquirePermit(), FAST);
        }
        assertThat(this.clock.pendingTasks()).isZero();
        assertThat(this.breaker.metrics().notPermittedCallsTotal()).isEqualTo(1_999);
    }

    @Test
    void registryGivesItsExecutorToItsBreakers() {
        List<Runnable> handedOver = new ArrayList<>();
        CircuitBreakerRegistry registry = new CircuitBreakerRegistry(this.clock, handedOver::add);
        CircuitBreaker registered = registry.breaker("payment-gateway", config());
        for (int i = 0; i < 2; i++) {
            registered.onError(registered.acquirePermit(), FAST, new IOException("down"));
        }

        this.clock.advance(WAIT_IN_OPEN);

        assertThat(handedOver).hasSize(1);
        handedOver.get(0).run();
        assertThat(registered.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
    }

    private CircuitBreaker breaker(TimeSource timeSource, Executor executor) {
        CircuitBreaker created = CircuitBreaker.of("payment-gateway", config(), timeSource, executor);
        created.addListener(new CircuitBreakerListener() {
            @Override
            public void onStateTransition(CircuitBreakerTransition transition) {
                CircuitBreakerAutomaticTransitionTests.this.transitions.add(transition);
            }
        });
        return created;
    }

    private static CircuitBreakerConfig config() {
        return CircuitBreakerConfig.builder()
            .slidingWindowSize(2)
            .minimumCalls(2)
            .waitInOpen(WAIT_IN_OPEN)
            .halfOpenCalls(1)
            .maxWaitInHalfOpen(MAX_WAIT_IN_HALF_OPEN)
            .automaticTransitionToHalfOpen(true)
            .build();
    }

    private void open() {
        for (int i = 0; i < 2; i++) {
            this.breaker.onError(this.breaker.acquirePermit(), FAST, new IOException("down"));
        }
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
    }

    /**
     * A virtual clock whose timers may be made impossible to cancel, so that the timers
     * of states the breaker has left still fire, and which can run an action just before
     * it sets a timer, as another thread would between a transition and its timer.
     */
    private static final class InterceptedTimers implements TimeSource {

        private final VirtualTimeSource clock;

        private final boolean cancellable;

        private @Nullable Runnable beforeNextSchedule;

        InterceptedTimers(VirtualTimeSource clock, boolean cancellable) {
            this.clock = clock;
            this.cancellable = cancellable;
        }

        @Override
        public long nanoTime() {
            return this.clock.nanoTime();
        }

        @Override
        public Instant now() {
            return this.clock.now();
        }

        @Override
        public void sleep(Duration duration) throws InterruptedException {
            this.clock.sleep(duration);
        }

        @Override
        public ScheduledTask schedule(Runnable task, Duration delay) {
            Runnable before = this.beforeNextSchedule;
            this.beforeNextSchedule = null;
            if (before != null) {
                before.run();
            }
            ScheduledTask scheduled = this.clock.schedule(task, delay);
            return this.cancellable ? scheduled : () -> false;
        }

    }

}
