package dev.resilience.core.circuitbreaker;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static dev.resilience.core.circuitbreaker.BreakerFixture.FAST;
import static dev.resilience.core.circuitbreaker.BreakerFixture.SLOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

@SuppressWarnings("removal")
class CircuitBreakerConcurrencyTests {

    private static final int THREADS = 8;

    private static final int CALLS_PER_THREAD = 10_000;

    private static final IOException FAILURE = new IOException("down");

    private static final IllegalStateException IGNORED = new IllegalStateException("ignored");

    private final ExecutorService executor = Executors.newFixedThreadPool(16);

    @AfterEach
    void shutDown() throws InterruptedException {
        this.executor.shutdownNow();
        assertThat(this.executor.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void halfOpenAdmitsExactlyItsProbesWhenSixteenThreadsAskAtOnce() throws Exception {
        for (int round = 0; round < 50; round++) {
            BreakerFixture fixture = new BreakerFixture(SlidingWindowType.COUNT);
            List<CircuitBreakerTransition> transitions = recordTransitions(fixture.breaker);
            fixture.openThenWait();

            List<Boolean> permitted = runTogether(16, () -> fixture.breaker.tryAcquirePermission());

            assertThat(permitted).filteredOn(Boolean::booleanValue).hasSize(3);
            assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
            assertThat(fixture.breaker.metrics().notPermittedCallsTotal()).isEqualTo(13);
            assertThat(transitions).extracting(CircuitBreakerTransition::to)
                .containsExactly(CircuitBreakerState.OPEN, CircuitBreakerState.HALF_OPEN);
        }
    }

    @Test
    void concurrentFailuresOpenTheBreakerExactlyOnce() throws Exception {
        for (int round = 0; round < 20; round++) {
            BreakerFixture fixture = new BreakerFixture(SlidingWindowType.COUNT);
            List<CircuitBreakerTransition> transitions = recordTransitions(fixture.breaker);

            runTogether(16, () -> {
                for (int i = 0; i < 100; i++) {
                    if (fixture.breaker.tryAcquirePermission()) {
                        fixture.breaker.onError(FAST, FAILURE);
                    }
                }
                return true;
            });

            assertThat(fixture.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
            assertThat(transitions).extracting(CircuitBreakerTransition::from, CircuitBreakerTransition::to)
                .containsExactly(tuple(CircuitBreakerState.CLOSED, CircuitBreakerState.OPEN));
        }
    }

    /**
     * Six threads call with permits and move the virtual clock, which fires the timers of
     * automatic transitions on the moving thread, and one of them closes the breaker by
     * hand now and then; when they are done, the only timer left is the current state's,
     * and every transition heard was a legal one.
     */
    @Test
    void automaticTransitionsLeaveOnlyTheCurrentStatesTimerWhenCallsMovesAndTheClockRace() throws Exception {
        for (int round = 0; round < 20; round++) {
            VirtualTimeSource clock = new VirtualTimeSource();
            CircuitBreaker breaker = CircuitBreaker.of("payment-gateway",
                    BreakerFixture.config(SlidingWindowType.COUNT)
                        .waitInOpen(Duration.ofMillis(50))
                        .maxWaitInHalfOpen(Duration.ofMillis(80))
                        .automaticTransitionToHalfOpen(true)
                        .build(),
                    clock, Runnable::run);
            List<CircuitBreakerTransition> transitions = recordTransitions(breaker);
            AtomicInteger threads = new AtomicInteger();

            runTogether(6, () -> {
                boolean closes = threads.getAndIncrement() == 0;
                for (int i = 0; i < 2_000; i++) {
                    callWithPermit(breaker, i % 3 != 0);
                    if (i % 3 == 2) {
                        clock.advance(Duration.ofMillis(7));
                    }
                    if (closes && i % 100 == 99) {
                        breaker.transitionTo(CircuitBreakerState.CLOSED);
                    }
                }
                return true;
            });

            boolean timed = breaker.state() == CircuitBreakerState.OPEN
                    || breaker.state() == CircuitBreakerState.HALF_OPEN;
            assertThat(clock.pendingTasks()).isEqualTo(timed ? 1 : 0);
            assertThat(transitions)
                .allSatisfy((transition) -> assertThat(isLegal(transition)).as(transition.toString()).isTrue());
            assertThat(transitions).extracting(CircuitBreakerTransition::to).contains(CircuitBreakerState.HALF_OPEN);
        }
    }

    @ParameterizedTest
    @EnumSource(SlidingWindowType.class)
    void largeWindowCountsEveryCallOfEightThreadsExactly(SlidingWindowType type) throws Exception {
        int size = (type == SlidingWindowType.COUNT) ? THREADS * CALLS_PER_THREAD : 60;
        BreakerFixture fixture = new BreakerFixture(neverOpening(type, size));

        runTogether(THREADS, () -> recordKnownMix(fixture));

        assertThat(fixture.breaker.metrics()).isEqualTo(new CircuitBreakerMetrics(CircuitBreakerState.CLOSED, 100f / 3,
                100f * 16 / 72, 72_000, 24_000, 16_000, 48_000, 24_000, 16_000, 8_000, 0));
    }

    @Test
    void smallWindowStaysFullAndConsistentUnderEightThreads() throws Exception {
        BreakerFixture fixture = new BreakerFixture(neverOpening(SlidingWindowType.COUNT, 100));

        runTogether(THREADS, () -> recordKnownMix(fixture));

        CircuitBreakerMetrics metrics = fixture.breaker.metrics();
        assertThat(metrics.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(metrics.bufferedCalls()).isEqualTo(100);
        assertThat(metrics.failedCalls()).isBetween(0, 100);
        assertThat(metrics.slowCalls()).isBetween(0, 100);
        assertThat(metrics.failureRate()).isEqualTo(metrics.failedCalls() * 100f / 100);
        assertThat(metrics.successfulCallsTotal()).isEqualTo(48_000);
        assertThat(metrics.failedCallsTotal()).isEqualTo(24_000);
        assertThat(metrics.slowCallsTotal()).isEqualTo(16_000);
        assertThat(metrics.ignoredCallsTotal()).isEqualTo(8_000);
    }

    /**
     * Thresholds of 100% that the mix cannot reach: each thread records at most two
     * failures or two slow calls in a row, so no run of recorded calls from eight threads
     * is all failures or all slow beyond 16 calls, and every thread starts with a fast
     * success.
     */
    private static CircuitBreakerConfig neverOpening(SlidingWindowType type, int size) {
        return BreakerFixture.config(type)
            .slidingWindowSize(size)
            .minimumCalls(1)
            .failureRateThreshold(100)
            .slowCallRateThreshold(100)
            .build();
    }

    /**
     * Per 10 calls: 5 fast successes, 2 fast failures, 1 slow success, 1 slow failure, 1
     * ignored error.
     */
    private static boolean recordKnownMix(BreakerFixture fixture) {
        CircuitBreaker breaker = fixture.breaker;
        for (int i = 0; i < CALLS_PER_THREAD; i++) {
            breaker.acquirePermission();
            switch (i % 10) {
                case 5, 6 -> breaker.onError(FAST, FAILURE);
                case 7 -> breaker.onSuccess(SLOW);
                case 8 -> breaker.onError(SLOW, FAILURE);
                case 9 -> breaker.onError(FAST, IGNORED);
                default -> breaker.onSuccess(FAST);
            }
        }
        return true;
    }

    private static void callWithPermit(CircuitBreaker breaker, boolean fails) {
        CircuitBreaker.Permit permit;
        try {
            permit = breaker.acquirePermit();
        }
        catch (CallNotPermittedException ex) {
            return;
        }
        if (fails) {
            breaker.onError(permit, FAST, FAILURE);
        }
        else {
            breaker.onSuccess(permit, FAST);
        }
    }

    private static boolean isLegal(CircuitBreakerTransition transition) {
        return switch (transition.to()) {
            case CLOSED -> true;
            case FORCED_OPEN, DISABLED -> transition.from() != transition.to();
            case OPEN ->
                transition.from() == CircuitBreakerState.CLOSED || transition.from() == CircuitBreakerState.HALF_OPEN;
            case HALF_OPEN -> transition.from() == CircuitBreakerState.OPEN;
        };
    }

    private static List<CircuitBreakerTransition> recordTransitions(CircuitBreaker breaker) {
        List<CircuitBreakerTransition> transitions = new CopyOnWriteArrayList<>();
        breaker.addListener(new CircuitBreakerListener() {
            @Override
            public void onStateTransition(CircuitBreakerTransition transition) {
                transitions.add(transition);
            }
        });
        return transitions;
    }

    private <T> List<T> runTogether(int threads, Callable<T> task) throws Exception {
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            futures.add(this.executor.submit(() -> {
                ready.countDown();
                assertThat(start.await(30, TimeUnit.SECONDS)).isTrue();
                return task.call();
            }));
        }
        assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
        start.countDown();
        List<T> results = new ArrayList<>();
        for (Future<T> future : futures) {
            results.add(future.get(60, TimeUnit.SECONDS));
        }
        return results;
    }

}
