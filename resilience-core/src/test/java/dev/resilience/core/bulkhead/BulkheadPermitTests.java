package dev.resilience.core.bulkhead;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.resilience.core.DelegatingTimer;
import dev.resilience.core.time.ScheduledTask;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static dev.resilience.core.bulkhead.BulkheadTests.awaitValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The permits a bulkhead hands out without a {@link Bulkhead.Permit} object
 * ({@link Bulkhead#enter()}, {@link Bulkhead#enterAsync()}, {@link Bulkhead#exit()}),
 * side by side with those it hands out with one: the same limit, the same queue, first
 * come first served, on the virtual clock; the same counters; and the wait ended by an
 * interrupt, a cancellation or the end of the maximum wait.
 */
class BulkheadPermitTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final List<Thread> threads = new ArrayList<>();

    @AfterEach
    void stopThreads() throws InterruptedException {
        for (Thread thread : this.threads) {
            thread.interrupt();
            thread.join(10_000);
        }
    }

    private Bulkhead bulkhead(int limit, Duration maxWait) {
        return Bulkhead.of("inventory", BulkheadConfig.builder().maxConcurrentCalls(limit).maxWait(maxWait).build(),
                this.clock);
    }

    @Test
    void enteringTakesAPermitOfTheSameLimitAndExitingGivesItBack() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(2, Duration.ZERO);
        bulkhead.enter();
        Bulkhead.Permit permit = bulkhead.acquire();

        assertThatExceptionOfType(BulkheadFullException.class).isThrownBy(bulkhead::enter)
            .satisfies((ex) -> assertThat(ex.limit()).isEqualTo(2));
        assertThat(bulkhead.enterAsync()).isCompletedExceptionally();
        bulkhead.exit();
        bulkhead.onSuccess(permit, 1);

        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(bulkhead.permittedCalls()).isEqualTo(2);
        assertThat(bulkhead.rejectedCalls()).isEqualTo(2);
    }

    @Test
    void exitingWithNoPermitOutIsRefusedAndLeavesTheBulkheadAsItWas() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(1, Duration.ZERO);

        assertThatIllegalStateException().isThrownBy(bulkhead::exit);

        bulkhead.enter();
        assertThat(bulkhead.concurrentCalls()).isOne();
        assertThatExceptionOfType(BulkheadFullException.class).isThrownBy(bulkhead::enter);
    }

    @Test
    void waitersOfBothKindsAreGrantedInTheOrderTheyArrivedAndNoneOvertakesThem() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(2, Duration.ofMinutes(1));
        bulkhead.enter();
        Bulkhead.Permit held = bulkhead.acquire();
        List<CompletableFuture<?>> waiting = new ArrayList<>();
        List<Integer> granted = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            int arrival = i;
            CompletableFuture<?> waiter = (i % 2 == 0) ? bulkhead.enterAsync() : bulkhead.acquireAsync();
            waiter.thenRun(() -> granted.add(arrival));
            waiting.add(waiter);
        }
        assertThat(bulkhead.waitingCalls()).isEqualTo(6);

        bulkhead.exit();
        assertThat(granted).containsExactly(0);
        assertThat(bulkhead.enterAsync()).as("a newcomer queues behind them").isNotDone();
        bulkhead.release(held);
        assertThat(granted).containsExactly(0, 1);
        bulkhead.exit();
        bulkhead.release((Bulkhead.Permit) waiting.get(1).join());
        assertThat(granted).containsExactly(0, 1, 2, 3);

        assertThat(bulkhead.waitingCalls()).isEqualTo(3);
        assertThat(bulkhead.concurrentCalls()).isEqualTo(2);
        assertThat(bulkhead.permittedCalls()).isEqualTo(6);
    }

    @Test
    void aWaiterThatGaveUpOrTimedOutIsSkippedAndTheNextOneGetsThePermit() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(1, Duration.ofMillis(100));
        bulkhead.enter();
        CompletableFuture<?> expiring = bulkhead.enterAsync();
        this.clock.advance(Duration.ofMillis(50));
        CompletableFuture<?> cancelled = bulkhead.enterAsync();
        CompletableFuture<?> next = bulkhead.acquireAsync();
        CompletableFuture<?> last = bulkhead.enterAsync();

        this.clock.advance(Duration.ofMillis(50));
        cancelled.cancel(false);
        assertThat(expiring).isCompletedExceptionally();
        assertThat(bulkhead.waitingCalls()).isEqualTo(2);
        bulkhead.exit();

        assertThat(next).isCompleted();
        assertThat(last).isNotDone();
        assertThat(bulkhead.rejectedCalls()).as("the expired wait and the cancelled one").isEqualTo(2);
        assertThat(bulkhead.concurrentCalls()).isOne();
        bulkhead.release((Bulkhead.Permit) next.join());
        assertThat(last).isCompleted();
        bulkhead.exit();
        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(bulkhead.waitingCalls()).isZero();
        assertThat(bulkhead.permittedCalls()).isEqualTo(3);
        assertThat(this.clock.pendingTasks()).as("every wait's timer is gone").isZero();
    }

    @Test
    void aPermitGrantedToAWaiterThatWasCancelledAtTheSameTimeIsGivenBackByItsCaller() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(1, Duration.ofMinutes(1));
        bulkhead.enter();
        CompletableFuture<?> waiter = bulkhead.enterAsync();

        bulkhead.exit();
        assertThat(waiter.cancel(false)).as("granted first: the permit is the caller's").isFalse();
        bulkhead.exit();

        assertThat(bulkhead.concurrentCalls()).isZero();
        bulkhead.enter();
        assertThat(bulkhead.concurrentCalls()).isOne();
    }

    @Test
    void anInterruptEndsAnEntrysWaitAtOnceAndTheWaiterHoldsNoPermit() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(1, Duration.ofMinutes(1));
        bulkhead.enter();
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread waiter = start(() -> {
            try {
                bulkhead.enter();
            }
            catch (InterruptedException ex) {
                outcome.set(ex);
            }
        });
        awaitValue(bulkhead::waitingCalls, 1);

        waiter.interrupt();
        waiter.join(10_000);
        bulkhead.exit();

        assertThat(outcome.get()).isInstanceOf(InterruptedException.class);
        assertThat(bulkhead.waitingCalls()).isZero();
        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(bulkhead.rejectedCalls()).as("a wait given up counts as rejected").isOne();
        assertThat(this.clock.pendingTasks()).as("the wait's timer is cancelled").isZero();
    }

    @Test
    void anEntryWaitsOnItsThreadUntilAPermitIsHandedToItOrItsWaitEnds() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(1, Duration.ofSeconds(1));
        bulkhead.enter();
        CountDownLatch entered = new CountDownLatch(1);
        AtomicReference<Throwable> refusal = new AtomicReference<>();
        start(() -> {
            bulkhead.enter();
            entered.countDown();
        });
        Thread refused = start(() -> {
            awaitValue(bulkhead::waitingCalls, 1);
            try {
                bulkhead.enter();
            }
            catch (BulkheadFullException ex) {
                refusal.set(ex);
            }
        });
        awaitValue(bulkhead::waitingCalls, 2);

        bulkhead.exit();
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        this.clock.advance(Duration.ofSeconds(1));
        refused.join(10_000);

        assertThat(refusal.get()).isInstanceOf(BulkheadFullException.class);
        assertThat(bulkhead.concurrentCalls()).isOne();
        assertThat(bulkhead.waitingCalls()).isZero();
        assertThat(bulkhead.permittedCalls()).isEqualTo(2);
        assertThat(bulkhead.rejectedCalls()).isOne();
    }

    @Test
    void aCallCountedAsWaitingHasTheEndOfItsWaitScheduledAlready() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(1, Duration.ofSeconds(1));
        bulkhead.enter();
        AtomicReference<Throwable> refusal = new AtomicReference<>();
        Thread waiter = start(() -> {
            try {
                bulkhead.enter();
            }
            catch (BulkheadFullException ex) {
                refusal.set(ex);
            }
        });
        awaitValue(bulkhead::waitingCalls, 1);

        assertThat(this.clock.pendingTasks()).isOne();
        this.clock.advance(Duration.ofSeconds(1));
        waiter.join(10_000);

        assertThat(refusal.get()).isInstanceOf(BulkheadFullException.class);
        assertThat(bulkhead.waitingCalls()).isZero();
    }

    @Test
    void aWaitThatEndsBeforeTheCallIsQueuedRefusesItAndLeavesNothingWaiting() throws InterruptedException {
        TimeSource endsAtOnce = new DelegatingTimer(this.clock) {

            @Override
            public ScheduledTask schedule(Runnable task, Duration delay) {
                task.run();
                return () -> false;
            }

        };
        Bulkhead bulkhead = Bulkhead.of("inventory",
                BulkheadConfig.builder().maxConcurrentCalls(1).maxWait(Duration.ofNanos(1)).build(), endsAtOnce);
        bulkhead.enter();

        assertThat(bulkhead.enterAsync()).isCompletedExceptionally();
        assertThatExceptionOfType(BulkheadFullException.class).isThrownBy(bulkhead::acquire);
        bulkhead.exit();

        assertThat(bulkhead.waitingCalls()).isZero();
        assertThat(bulkhead.rejectedCalls()).isEqualTo(2);
        bulkhead.enter();
        assertThat(bulkhead.concurrentCalls()).as("a free permit is taken without waiting").isOne();
        assertThat(bulkhead.permittedCalls()).isEqualTo(2);
    }

    @Test
    void aWaitWhoseEndCannotBeScheduledFailsTheCallWithoutQueueingIt() throws InterruptedException {
        IllegalStateException rejected = new IllegalStateException("timer rejected the task");
        TimeSource refusing = new DelegatingTimer(this.clock) {

            @Override
            public ScheduledTask schedule(Runnable task, Duration delay) {
                throw rejected;
            }

        };
        Bulkhead bulkhead = Bulkhead.of("inventory",
                BulkheadConfig.builder().maxConcurrentCalls(1).maxWait(Duration.ofSeconds(1)).build(), refusing);
        bulkhead.enter();

        assertThat(bulkhead.enterAsync()).isCompletedExceptionally()
            .failsWithin(Duration.ZERO)
            .withThrowableOfType(ExecutionException.class)
            .withCause(rejected);
        bulkhead.exit();

        assertThat(bulkhead.waitingCalls()).isZero();
        assertThat(bulkhead.concurrentCalls()).isZero();
        bulkhead.enter();
        assertThat(bulkhead.permittedCalls()).isEqualTo(2);
    }

    @Test
    void aPermitHandedBackTwiceFromTwoThreadsAtOnceIsCountedOnce() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(4, Duration.ZERO);
        int rounds = 2_000;
        AtomicInteger below = new AtomicInteger();
        for (int i = 0; i < rounds; i++) {
            Bulkhead.Permit permit = bulkhead.acquire();
            bulkhead.enter();
            CountDownLatch go = new CountDownLatch(1);
            Thread other = start(() -> {
                go.await();
                bulkhead.onSuccess(permit, 1);
            });
            go.countDown();
            bulkhead.release(permit);
            other.join(10_000);
            if (bulkhead.concurrentCalls() != 1) {
                below.incrementAndGet();
            }
            bulkhead.exit();
        }

        assertThat(below).as("rounds where the permit was given back twice or not at all").hasValue(0);
        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(bulkhead.permittedCalls()).isEqualTo(2L * rounds);
    }

    private Thread start(Waiting body) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }, "bulkhead-permit-test-" + this.threads.size());
        this.threads.add(thread);
        thread.start();
        return thread;
    }

    @FunctionalInterface
    interface Waiting {

        void run() throws InterruptedException;

    }

}
