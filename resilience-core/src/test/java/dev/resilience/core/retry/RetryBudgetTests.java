package dev.resilience.core.retry;

import java.time.Duration;
import java.time.Instant;
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

import dev.resilience.core.time.ScheduledTask;
import dev.resilience.core.time.TimeSource;
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
        assertThat(callsEachAskingForARetry(budget, 100)).isEqualTo(10);
        assertThat(budget.tryAcquireRetry()).isFalse();
        assertThat(budget.callsInWindow()).isEqualTo(100);
        assertThat(budget.retriesInWindow()).isEqualTo(10);
        assertThat(budget.refusedTotal()).isEqualTo(91);
    }

    @Test
    void everyTenthCallEarnsTheRetryOfARatioOfATenth() {
        RetryBudget budget = new RetryBudget(0.1, 0, WINDOW, this.time);
        for (int call = 1; call <= 30; call++) {
            budget.recordCall();
            assertThat(budget.tryAcquireRetry()).as("retry after call %d", call).isEqualTo(call % 10 == 0);
        }
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
        assertThat(callsEachAskingForARetry(budget, 100)).isEqualTo(29);
    }

    @Test
    void burstOfCallsEarnsAtMostWhatTheBucketHolds() {
        RetryBudget ratioOnly = new RetryBudget(0.1, 0, WINDOW, this.time);
        recordCalls(ratioOnly, 100);
        assertThat(acquireAll(ratioOnly)).as("a hundred calls at once, no floor").isEqualTo(1);

        RetryBudget withFloor = new RetryBudget(0.1, 5, WINDOW, this.time);
        recordCalls(withFloor, 100);
        assertThat(acquireAll(withFloor)).as("a hundred calls at once, a floor of 5").isEqualTo(5);
    }

    @Test
    void floorGrantsOneSecondOfRetriesAtOnceThenOneRetryPerShareOfASecond() {
        RetryBudget budget = new RetryBudget(0.1, 10, WINDOW, this.time);
        assertThat(acquireAll(budget)).isEqualTo(10);
        this.time.advance(Duration.ofMillis(99));
        assertThat(budget.tryAcquireRetry()).isFalse();
        this.time.advance(Duration.ofMillis(1));
        assertThat(budget.tryAcquireRetry()).isTrue();
        assertThat(budget.tryAcquireRetry()).isFalse();
        this.time.advance(Duration.ofSeconds(1));
        assertThat(acquireAll(budget)).isEqualTo(10);
        assertThat(budget.callsInWindow()).isZero();
    }

    @Test
    void floorAccruesWithoutRoundingDrift() {
        RetryBudget budget = new RetryBudget(0, 3, Duration.ofHours(1), this.time);
        assertThat(acquireAll(budget)).isEqualTo(3);
        int granted = 0;
        for (int step = 0; step < 3_000; step++) {
            this.time.advance(Duration.ofNanos(333_333_333));
            granted += acquireAll(budget);
        }
        assertThat(granted).as("retries in 999,999,999 us at 3 per second").isEqualTo(2_999);
        this.time.advance(Duration.ofNanos(1_000));
        assertThat(budget.tryAcquireRetry()).isTrue();
    }

    @Test
    void windowKeepsTheLongRunToTheLargerOfRatioAndFloorNotTheirSum() {
        RetryBudget ratioAbove = new RetryBudget(0.5, 1, WINDOW, this.time);
        long ratioAboveGranted = 0;
        for (int call = 0; call < 1_000; call++) {
            ratioAbove.recordCall();
            ratioAboveGranted += acquireAll(ratioAbove);
            this.time.advance(Duration.ofMillis(10));
        }
        assertThat(ratioAboveGranted).as("100 calls/s for 10 s, ratio 0.5, floor 1/s").isEqualTo(500);

        VirtualTimeSource floorTime = new VirtualTimeSource();
        RetryBudget floorAbove = new RetryBudget(0.1, 10, WINDOW, floorTime);
        long floorAboveGranted = 0;
        for (int millis = 0; millis < 10_000; millis++) {
            if (millis % 100 == 0) {
                floorAbove.recordCall();
            }
            floorAboveGranted += acquireAll(floorAbove);
            floorTime.advance(Duration.ofMillis(1));
        }
        assertThat(floorAboveGranted).as("10 calls/s for 10 s, ratio 0.1, floor 10/s").isEqualTo(100);
    }

    @Test
    void retriesRefusedByTheWindowAreAllowedAgainWhenTheirSecondLeavesIt() {
        RetryBudget budget = new RetryBudget(0, 10, WINDOW, this.time);
        assertThat(acquireAll(budget)).isEqualTo(10);
        this.time.advance(Duration.ofMillis(500));
        assertThat(acquireAll(budget)).isEqualTo(5);
        for (int second = 1; second < 10; second++) {
            this.time.advance(Duration.ofMillis(500));
            acquireAll(budget);
            this.time.advance(Duration.ofMillis(500));
            acquireAll(budget);
        }
        assertThat(budget.retriesInWindow()).isEqualTo(100);
        this.time.advance(Duration.ofMillis(499));
        assertThat(budget.tryAcquireRetry()).as("9 tokens in the bucket, a full window").isFalse();
        this.time.advance(Duration.ofMillis(1));
        assertThat(budget.retriesInWindow()).isEqualTo(100 - 15);
        assertThat(acquireAll(budget)).isEqualTo(10);
        assertThat(budget.refusedTotal()).isEqualTo(22);
    }

    @Test
    void bucketsLeaveTheWindowOneSecondAtATime() {
        RetryBudget budget = new RetryBudget(0.1, 0, WINDOW, this.time);
        assertThat(callsEachAskingForARetry(budget, 100)).isEqualTo(10);
        this.time.advance(Duration.ofSeconds(5));
        assertThat(callsEachAskingForARetry(budget, 50)).isEqualTo(5);

        this.time.advance(Duration.ofSeconds(5));
        assertThat(budget.callsInWindow()).isEqualTo(50);
        assertThat(budget.retriesInWindow()).isEqualTo(5);

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
    void clockJumpOfACenturyFillsTheBucketWithoutOverflowing() {
        RetryBudget budget = new RetryBudget(0.1, 10, WINDOW, this.time);
        acquireAll(budget);
        this.time.advance(Duration.ofDays(36_500));
        assertThat(acquireAll(budget)).isEqualTo(10);

        RetryBudget largestFloor = new RetryBudget(1000, Integer.MAX_VALUE, Duration.ofHours(1), this.time);
        assertThat(acquire(largestFloor, 1_000)).isEqualTo(1_000);
        this.time.advance(Duration.ofDays(36_500));
        assertThat(acquire(largestFloor, 1_000)).isEqualTo(1_000);
    }

    @Test
    void clockGoingBackEarnsNoTokens() {
        SettableTime clock = new SettableTime();
        clock.nanos = 10_000_000_000L;
        RetryBudget budget = new RetryBudget(0, 10, WINDOW, clock);
        assertThat(acquireAll(budget)).isEqualTo(10);
        clock.nanos -= 5_000_000_000L;
        assertThat(budget.tryAcquireRetry()).isFalse();
        clock.nanos += 99_000_000L;
        assertThat(budget.tryAcquireRetry()).isFalse();
        clock.nanos += 1_000_000L;
        assertThat(budget.tryAcquireRetry()).isTrue();
    }

    @Test
    void callCountedWithATimeReadBeforeAnotherThreadsRetryEarnsNoTokenTwice() {
        RetryBudget budget = new RetryBudget(0, 10, WINDOW, this.time);
        assertThat(acquireAll(budget)).isEqualTo(10);
        this.time.advance(Duration.ofMillis(500));
        assertThat(acquireAll(budget)).isEqualTo(5);
        this.time.advance(Duration.ofMillis(450));
        long readByACallerBeforeItWasDescheduled = this.time.nanoTime();
        this.time.advance(Duration.ofMillis(150));
        assertThat(acquireAll(budget)).isEqualTo(6);

        budget.recordCall(readByACallerBeforeItWasDescheduled);

        assertThat(budget.tryAcquireRetry()).isFalse();
        this.time.advance(Duration.ofMillis(100));
        assertThat(acquireAll(budget)).isEqualTo(1);
    }

    @Test
    void fractionOfASecondRoundsTheWindowUp() {
        RetryBudget budget = new RetryBudget(0.5, 0, Duration.ofMillis(1500), this.time);
        budget.recordCall();
        this.time.advance(Duration.ofMillis(1999));
        assertThat(budget.callsInWindow()).isOne();
        this.time.advance(Duration.ofMillis(1));
        assertThat(budget.callsInWindow()).isZero();
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
    void racingThreadsAreAdmittedExactlyTheTokensInTheBucket() throws Exception {
        RetryBudget budget = new RetryBudget(0, 100, WINDOW, this.time);
        assertThat(sum(race(() -> acquire(budget, 500)))).isEqualTo(100);
        this.time.advance(Duration.ofSeconds(1));
        assertThat(sum(race(() -> acquire(budget, 500)))).isEqualTo(100);
        assertThat(budget.retriesInWindow()).isEqualTo(200);
        assertThat(budget.refusedTotal()).isEqualTo(2 * 8 * 500 - 200);
    }

    @RepeatedTest(20)
    void retriesRacingCallsNeverExceedTheRatio() throws Exception {
        RetryBudget budget = new RetryBudget(0.1, 0, WINDOW, this.time);
        int total = sum(race(() -> {
            int granted = 0;
            for (int i = 0; i < 250; i++) {
                budget.recordCall();
                granted += acquire(budget, 1);
            }
            return granted;
        }));
        assertThat(total).isLessThanOrEqualTo(200);
        assertThat(budget.callsInWindow()).isEqualTo(2_000);
        assertThat(budget.retriesInWindow()).isEqualTo(total);
        assertThat(budget.refusedTotal()).isEqualTo(2_000 - total);
        assertThat(total + acquireAll(budget)).isLessThanOrEqualTo(200);
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

    private static int sum(List<Future<Integer>> futures) throws Exception {
        int total = 0;
        for (Future<Integer> future : futures) {
            total += future.get(10, TimeUnit.SECONDS);
        }
        return total;
    }

    private static int callsEachAskingForARetry(RetryBudget budget, int calls) {
        int granted = 0;
        for (int i = 0; i < calls; i++) {
            budget.recordCall();
            granted += acquire(budget, 1);
        }
        return granted;
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

    /**
     * A time source that reads a field, so that a test can move it back; it cannot sleep
     * or schedule.
     */
    private static final class SettableTime implements TimeSource {

        private volatile long nanos;

        @Override
        public long nanoTime() {
            return this.nanos;
        }

        @Override
        public Instant now() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void sleep(Duration duration) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ScheduledTask schedule(Runnable task, Duration delay) {
            throw new UnsupportedOperationException();
        }

    }

}
