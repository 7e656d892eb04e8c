package dev.resilience.core.retry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import dev.resilience.core.time.VirtualTimeSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RetryBudgetTests {

    private static final Duration WINDOW = Duration.ofSeconds(10);

    private final VirtualTimeSource time = new VirtualTimeSource();

    private final ExecutorService executor = Executors.newFixedThreadPool(8);

    @AfterEach
    void shutDown() throws InterruptedException {
        this.executor.shutdownNow();
        assertThat(this.executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void callCountedAtAGivenTimeLandsInThatSecond() {
        RetryBudget budget = new RetryBudget(1.0, 0, Duration.ofSeconds(2), this.time);
        assertThat(budget.usesTimeSource(this.time)).isTrue();
        assertThat(budget.usesTimeSource(new VirtualTimeSource())).isFalse();

        budget.recordCall(this.time.nanoTime());
        this.time.advance(Duration.ofSeconds(1));
        budget.recordCall(this.time.nanoTime());

        assertThat(budget.callsInWindow()).isEqualTo(2);
        this.time.advance(Duration.ofSeconds(1));
        assertThat(budget.callsInWindow()).isEqualTo(1);
    }

    @Test
    void ratioOfATenthAllowsTenRetriesPerHundredCalls() {
        RetryBudget budget = new RetryBudget(0.1, 0, WINDOW, this.time);
        recordCalls(budget, 100);
        assertThat(acquireAll(budget)).isEqualTo(10);
        assertThat(budget.tryAcquireRetry()).isFalse();
        assertThat(budget.callsInWindow()).isEqualTo(100);
        assertThat(budget.retriesInWindow()).isEqualTo(10);
        assertThat(budget.refusedTotal()).isEqualTo(2);
    }

    @Test
    void noCallsAndNoFloorAllowNoRetry() {
        RetryBudget budget = new RetryBudget(0.1, 0, WINDOW, this.time);
        assertThat(budget.tryAcquireRetry()).isFalse();
        recordCalls(budget, 9);
        assertThat(budget.tryAcquireRetry()).isFalse();
        budget.recordCall();
        assertThat(budget.tryAcquireRetry()).isTrue();
    }

    @Test
    void decimalRatiosAreCountedExactly() {
        RetryBudget budget = new RetryBudget(0.29, 0, WINDOW, this.time);
        recordCalls(budget, 100);
        assertThat(acquireAll(budget)).isEqualTo(29);
    }

    @Test
    void floorAllowsMinRetriesPerSecondTimesWindowWithoutCalls() {
        RetryBudget budget = new RetryBudget(0.1, 2, WINDOW, this.time);
        assertThat(acquireAll(budget)).isEqualTo(20);
        assertThat(budget.callsInWindow()).isZero();
    }

    @Test
    void ratioAboveTheFloorWins() {
        RetryBudget budget = new RetryBudget(0.5, 1, WINDOW, this.time);
        recordCalls(budget, 100);
        assertThat(acquireAll(budget)).isEqualTo(50);
    }

    @Test
    void refusedRetriesAreAllowedAgainOnceTheWindowHasPassed() {
        RetryBudget budget = new RetryBudget(0, 1, WINDOW, this.time);
        assertThat(acquireAll(budget)).isEqualTo(10);
        this.time.advance(Duration.ofMillis(9_999));
        assertThat(budget.tryAcquireRetry()).isFalse();
        this.time.advance(Duration.ofMillis(1));
        assertThat(budget.retriesInWindow()).isZero();
        assertThat(acquireAll(budget)).isEqualTo(10);
        assertThat(budget.refusedTotal()).isEqualTo(3);
    }

    @Test
    void bucketsLeaveTheWindowOneSecondAtATime() {
        RetryBudget budget = new RetryBudget(0.1, 0, WINDOW, this.time);
        recordCalls(budget, 100);
        assertThat(acquire(budget, 5)).isEqualTo(5);
        this.time.advance(Duration.ofSeconds(5));
        recordCalls(budget, 100);
        assertThat(acquireAll(budget)).isEqualTo(15);

        this.time.advance(Duration.ofSeconds(5));
        assertThat(budget.callsInWindow()).isEqualTo(100);
        assertThat(budget.retriesInWindow()).isEqualTo(15);
        assertThat(budget.tryAcquireRetry()).isFalse();

        this.time.advance(Duration.ofSeconds(5));
        assertThat(budget.callsInWindow()).isZero();
        assertThat(budget.retriesInWindow()).isZero();
    }

    @Test
    void countsStayRightAcrossManyTurnsOfTheRing() {
        RetryBudget budget = new RetryBudget(0.5, 0, Duration.ofSeconds(3), this.time);
        for (int second = 0; second < 50; second++) {
            recordCalls(budget, 2);
            assertThat(budget.tryAcquireRetry()).isTrue();
            assertThat(budget.callsInWindow()).isEqualTo(2L * Math.min(second + 1, 3));
            assertThat(budget.retriesInWindow()).isEqualTo(Math.min(second + 1, 3));
            this.time.advance(Duration.ofSeconds(1));
        }
    }

    @Test
    void oneSecondWindowForgetsEverySecond() {
        RetryBudget budget = new RetryBudget(0.5, 0, Duration.ofSeconds(1), this.time);
        recordCalls(budget, 2);
        assertThat(acquireAll(budget)).isEqualTo(1);
        this.time.advance(Duration.ofMillis(999));
        assertThat(budget.tryAcquireRetry()).isFalse();
        this.time.advance(Duration.ofMillis(1));
        assertThat(budget.callsInWindow()).isZero();
        recordCalls(budget, 2);
        assertThat(budget.tryAcquireRetry()).isTrue();
    }

    @Test
    void clockJumpBeyondTheWindowClearsIt() {
        RetryBudget budget = new RetryBudget(0.1, 0, WINDOW, this.time);
        recordCalls(budget, 100);
        acquireAll(budget);
        this.time.advance(Duration.ofDays(3).plusMillis(300));
        assertThat(budget.callsInWindow()).isZero();
        assertThat(budget.retriesInWindow()).isZero();
        recordCalls(budget, 10);
        this.time.advance(Duration.ofSeconds(9));
        assertThat(budget.callsInWindow()).isEqualTo(10);
        assertThat(budget.tryAcquireRetry()).isTrue();
        this.time.advance(Duration.ofSeconds(1));
        assertThat(budget.callsInWindow()).isZero();
        assertThat(budget.retriesInWindow()).isEqualTo(1);
    }

    @Test
    void fractionOfASecondRoundsTheWindowUp() {
        RetryBudget budget = new RetryBudget(0, 1, Duration.ofMillis(1500), this.time);
        assertThat(acquireAll(budget)).isEqualTo(2);
        assertThat(budget.window()).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void outOfRangeSettingsAreRefusedByName() {
        assertThatIllegalArgumentException().isThrownBy(() -> new RetryBudget(-0.1, 0, WINDOW, this.time))
            .withMessageStartingWith("ratio");
        assertThatIllegalArgumentException().isThrownBy(() -> new RetryBudget(1000.1, 0, WINDOW, this.time))
            .withMessageStartingWith("ratio");
        assertThatIllegalArgumentException().isThrownBy(() -> new RetryBudget(Double.NaN, 0, WINDOW, this.time))
            .withMessageStartingWith("ratio");
        assertThatIllegalArgumentException().isThrownBy(() -> new RetryBudget(0.1, -1, WINDOW, this.time))
            .withMessageStartingWith("minRetriesPerSecond");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new RetryBudget(0.1, 0, Duration.ofMillis(999), this.time))
            .withMessageStartingWith("window");
        assertThatIllegalArgumentException().isThrownBy(() -> new RetryBudget(0.1, 0, Duration.ofHours(2), this.time))
            .withMessageStartingWith("window");
    }

    @RepeatedTest(20)
    void racingThreadsAreAdmittedExactlyTheAllowedRetries() throws Exception {
        RetryBudget budget = new RetryBudget(0, 100, WINDOW, this.time);
        List<Future<Integer>> admitted = race(() -> acquire(budget, 500));
        int total = 0;
        for (Future<Integer> future : admitted) {
            total += future.get(10, TimeUnit.SECONDS);
        }
        assertThat(total).isEqualTo(1000);
        assertThat(budget.retriesInWindow()).isEqualTo(1000);
        assertThat(budget.refusedTotal()).isEqualTo(8 * 500 - 1000);
    }

    @RepeatedTest(20)
    void retriesRacingCallsNeverExceedTheRatio() throws Exception {
        RetryBudget budget = new RetryBudget(0.1, 0, WINDOW, this.time);
        List<Future<Integer>> admitted = race(() -> {
            int granted = 0;
            for (int i = 0; i < 250; i++) {
                budget.recordCall();
                granted += acquire(budget, 1);
            }
            return granted;
        });
        int total = 0;
        for (Future<Integer> future : admitted) {
            total += future.get(10, TimeUnit.SECONDS);
        }
        assertThat(total).isLessThanOrEqualTo(200);
        assertThat(total + acquireAll(budget)).isEqualTo(200);
    }

    private List<Future<Integer>> race(Callable<Integer> task) throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(8);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> futures = new ArrayList<>();
        for (int thread = 0; thread < 8; thread++) {
            futures.add(this.executor.submit(() -> {
                ready.countDown();
                start.await();
                return task.call();
            }));
        }
        ready.await();
        start.countDown();
        return futures;
    }

    private static void recordCalls(RetryBudget budget, int calls) {
        for (int i = 0; i < calls; i++) {
            budget.recordCall();
        }
    }

    private static int acquire(RetryBudget budget, int attempts) {
        int granted = 0;
        for (int i = 0; i < attempts; i++) {
            if (budget.tryAcquireRetry()) {
                granted++;
            }
        }
        return granted;
    }

    private static int acquireAll(RetryBudget budget) {
        int granted = 0;
        while (budget.tryAcquireRetry()) {
            granted++;
        }
        return granted;
    }
}
