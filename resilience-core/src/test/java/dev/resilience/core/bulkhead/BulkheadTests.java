package dev.resilience.core.bulkhead;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The permits of a bulkhead, its fair bounded wait on the virtual clock, and what ends a
 * wait early: an interrupt or a cancellation.
 */
class BulkheadTests {

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
    void aFullBulkheadWithoutWaitRefusesAtOnceNamingItselfAndItsLimit() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(2, Duration.ZERO);
        Bulkhead.Permit first = bulkhead.acquire();
        bulkhead.acquire();

        assertThatExceptionOfType(BulkheadFullException.class).isThrownBy(bulkhead::acquire).satisfies((ex) -> {
            assertThat(ex.bulkheadName()).isEqualTo("inventory");
            assertThat(ex.limit()).isEqualTo(2);
        });
        bulkhead.onSuccess(first, 10);

        assertThat(bulkhead.acquire()).isNotNull();
        assertThat(bulkhead.permittedCalls()).isEqualTo(3);
        assertThat(bulkhead.rejectedCalls()).isEqualTo(1);
        assertThat(bulkhead.concurrentCalls()).isEqualTo(2);
    }

    @Test
    void aPermitHandedBackTwiceIsCountedOnce() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(1, Duration.ZERO);
        Bulkhead.Permit permit = bulkhead.acquire();

        bulkhead.release(permit);
        bulkhead.onSuccess(permit, 1);
        bulkhead.onError(permit, 1, new IllegalStateException());
        Bulkhead.Permit next = bulkhead.acquire();

        assertThat(bulkhead.concurrentCalls()).isEqualTo(1);
        assertThatExceptionOfType(BulkheadFullException.class).isThrownBy(bulkhead::acquire);
        bulkhead.release(next);
        assertThat(bulkhead.concurrentCalls()).isZero();
    }

    @Test
    void waitersAreAdmittedInTheOrderTheyArrived() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(1, Duration.ofMinutes(1));
        Bulkhead.Permit held = bulkhead.acquire();
        ConcurrentLinkedQueue<Integer> admitted = new ConcurrentLinkedQueue<>();
        for (int i = 0; i < 5; i++) {
            int arrival = i;
            start(() -> {
                Bulkhead.Permit permit = bulkhead.acquire();
                admitted.add(arrival);
                bulkhead.onSuccess(permit, 1);
                return null;
            });
            awaitValue(bulkhead::waitingCalls, i + 1);
        }

        bulkhead.release(held);
        awaitValue(admitted::size, 5);

        assertThat(admitted).containsExactly(0, 1, 2, 3, 4);
        assertThat(bulkhead.waitingCalls()).isZero();
        assertThat(bulkhead.concurrentCalls()).isZero();
    }

    @Test
    void aNewCallNeverOvertakesAWaitingOne() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(1, Duration.ofMinutes(1));
        Bulkhead.Permit held = bulkhead.acquire();
        CompletableFuture<Bulkhead.Permit> waiting = bulkhead.acquireAsync();

        bulkhead.release(held);
        CompletableFuture<Bulkhead.Permit> newcomer = bulkhead.acquireAsync();

        assertThat(waiting).isCompleted();
        assertThat(newcomer).isNotDone();
        assertThat(bulkhead.waitingCalls()).isEqualTo(1);
    }

    @Test
    void aWaitEndsWithARefusalAfterMaxWaitOnTheVirtualClock() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(1, Duration.ofMillis(100));
        bulkhead.acquire();
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread waiter = start(() -> {
            try {
                bulkhead.acquire();
            }
            catch (BulkheadFullException ex) {
                outcome.set(ex);
            }
            return null;
        });
        awaitValue(bulkhead::waitingCalls, 1);

        this.clock.advance(Duration.ofMillis(99));
        assertThat(bulkhead.waitingCalls()).isEqualTo(1);
        this.clock.advance(Duration.ofMillis(1));
        waiter.join(10_000);

        assertThat(outcome.get()).isInstanceOf(BulkheadFullException.class);
        assertThat(bulkhead.waitingCalls()).isZero();
        assertThat(bulkhead.rejectedCalls()).isEqualTo(1);
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void anInterruptEndsTheWaitAtOnceAndTheWaiterHoldsNoPermit() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(1, Duration.ofMinutes(1));
        Bulkhead.Permit held = bulkhead.acquire();
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread waiter = start(() -> {
            try {
                bulkhead.acquire();
            }
            catch (InterruptedException ex) {
                outcome.set(ex);
            }
            return null;
        });
        awaitValue(bulkhead::waitingCalls, 1);

        waiter.interrupt();
        waiter.join(10_000);
        bulkhead.release(held);

        assertThat(outcome.get()).isInstanceOf(InterruptedException.class);
        assertThat(bulkhead.waitingCalls()).isZero();
        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(bulkhead.rejectedCalls()).as("a wait given up counts as rejected").isOne();
        assertThat(this.clock.pendingTasks()).as("the wait's timer is cancelled").isZero();
    }

    @Test
    void aCancelledAsynchronousWaitGivesUpItsPlace() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(1, Duration.ofMinutes(1));
        Bulkhead.Permit held = bulkhead.acquire();
        CompletableFuture<Bulkhead.Permit> first = bulkhead.acquireAsync();
        CompletableFuture<Bulkhead.Permit> second = bulkhead.acquireAsync();

        first.cancel(false);
        assertThat(bulkhead.waitingCalls()).isEqualTo(1);
        bulkhead.release(held);

        assertThat(second).isCompleted();
        assertThat(bulkhead.concurrentCalls()).isEqualTo(1);
        assertThat(bulkhead.waitingCalls()).isZero();
        assertThat(bulkhead.rejectedCalls()).as("the cancelled wait, once").isOne();
        first.cancel(false);
        assertThat(bulkhead.rejectedCalls()).isOne();
    }

    @Test
    void theLimitHoldsUnderContention() throws InterruptedException {
        Bulkhead bulkhead = Bulkhead.of("shared",
                BulkheadConfig.builder().maxConcurrentCalls(3).maxWait(Duration.ofMinutes(5)).build());
        CountDownLatch done = new CountDownLatch(16);
        ConcurrentLinkedQueue<Integer> seen = new ConcurrentLinkedQueue<>();
        for (int i = 0; i < 16; i++) {
            start(() -> {
                for (int round = 0; round < 200; round++) {
                    Bulkhead.Permit permit = bulkhead.acquire();
                    seen.add(bulkhead.concurrentCalls());
                    bulkhead.onSuccess(permit, 1);
                }
                done.countDown();
                return null;
            });
        }

        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(seen).hasSize(16 * 200).allSatisfy((inUse) -> assertThat(inUse).isBetween(1, 3));
        assertThat(bulkhead.permittedCalls()).isEqualTo(3200);
        assertThat(bulkhead.concurrentCalls()).isZero();
    }

    private Thread start(Waiting body) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }, "bulkhead-test-" + this.threads.size());
        this.threads.add(thread);
        thread.start();
        return thread;
    }

    /** Waits, with a generous bound, for a count that other threads move. */
    static void awaitValue(IntSupplier value, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (value.getAsInt() != expected) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Expected " + expected + " but was " + value.getAsInt());
            }
            Thread.sleep(1);
        }
    }

    @FunctionalInterface
    interface Waiting {

        Object run() throws InterruptedException;

    }

}
