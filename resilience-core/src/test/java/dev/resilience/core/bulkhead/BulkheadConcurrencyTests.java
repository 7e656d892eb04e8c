package dev.resilience.core.bulkhead;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many threads on one bulkhead, its permits taken with and without
 * {@link Bulkhead.Permit} objects: never more calls inside than the limit, counted inside
 * the call; every counter exact afterwards; and no call left waiting while a permit is
 * free. The waits are on the virtual clock, which no test advances, so a call that a lost
 * wake-up left waiting would wait for ever: the generous bound on each test's latch is
 * what fails then, never the machine's speed.
 */
class BulkheadConcurrencyTests {

    private static final int THREADS = 64;

    private static final int LIMIT = 8;

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final List<Thread> threads = new ArrayList<>();

    private final CallsInside calls = new CallsInside();

    @AfterEach
    void stopThreads() throws InterruptedException {
        for (Thread thread : this.threads) {
            thread.interrupt();
            thread.join(10_000);
        }
    }

    private Bulkhead bulkhead(Duration maxWait) {
        return Bulkhead.of("shared", BulkheadConfig.builder().maxConcurrentCalls(LIMIT).maxWait(maxWait).build(),
                this.clock);
    }

    @Test
    void sixtyFourThreadsThatWaitNeverExceedALimitOfEightAndAllGetTheirTurn() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(Duration.ofHours(1));
        int rounds = 300;

        runAll(rounds, (thread, round) -> {
            if ((thread + round) % 2 == 0) {
                bulkhead.enter();
                this.calls.work();
                bulkhead.exit();
            }
            else {
                Bulkhead.Permit permit = bulkhead.acquire();
                this.calls.work();
                bulkhead.onSuccess(permit, 1);
            }
        });

        assertThat(this.calls.peak()).isBetween(1, LIMIT);
        assertThat(this.calls.ran()).isEqualTo((long) THREADS * rounds);
        assertThat(bulkhead.permittedCalls()).isEqualTo((long) THREADS * rounds);
        assertThat(bulkhead.rejectedCalls()).isZero();
        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(bulkhead.waitingCalls()).isZero();
    }

    @Test
    void sixtyFourThreadsThatDoNotWaitNeverExceedALimitOfEightAndEveryCallIsCountedOnce() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(Duration.ZERO);
        int rounds = 2_000;
        AtomicLong refused = new AtomicLong();

        runAll(rounds, (thread, round) -> {
            try {
                bulkhead.enter();
            }
            catch (BulkheadFullException ex) {
                refused.incrementAndGet();
                return;
            }
            this.calls.work();
            bulkhead.exit();
        });

        assertThat(this.calls.peak()).isBetween(1, LIMIT);
        assertThat(bulkhead.permittedCalls()).isEqualTo(this.calls.ran());
        assertThat(bulkhead.rejectedCalls()).isEqualTo(refused.get());
        assertThat(bulkhead.permittedCalls() + bulkhead.rejectedCalls()).isEqualTo((long) THREADS * rounds);
        assertThat(bulkhead.concurrentCalls()).isZero();
    }

    @Test
    void asynchronousWaitersHandedPermitsByOtherThreadsNeverExceedTheLimit() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(Duration.ofHours(1));
        int rounds = 300;

        runAll(rounds, (thread, round) -> {
            CompletableFuture<?> entry = (round % 2 == 0) ? bulkhead.enterAsync() : bulkhead.acquireAsync();
            Object permit = granted(entry);
            this.calls.work();
            if (permit instanceof Bulkhead.Permit held) {
                bulkhead.release(held);
            }
            else {
                bulkhead.exit();
            }
        });

        assertThat(this.calls.peak()).isBetween(1, LIMIT);
        assertThat(bulkhead.permittedCalls()).isEqualTo((long) THREADS * rounds);
        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(bulkhead.waitingCalls()).isZero();
    }

    @Test
    void waitersThatGiveUpWhilePermitsAreHandedOverLeaveNoPermitOutAndNobodyWaiting() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(Duration.ofHours(1));
        int rounds = 300;
        AtomicLong gaveUp = new AtomicLong();

        runAll(rounds, (thread, round) -> {
            CompletableFuture<?> entry = bulkhead.enterAsync();
            if (round % 3 == 0 && entry.cancel(false)) {
                gaveUp.incrementAndGet();
                return;
            }
            granted(entry);
            this.calls.work();
            bulkhead.exit();
        });

        assertThat(this.calls.peak()).isBetween(1, LIMIT);
        assertThat(bulkhead.permittedCalls()).isEqualTo(this.calls.ran());
        assertThat(this.calls.ran() + gaveUp.get()).isEqualTo((long) THREADS * rounds);
        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(bulkhead.waitingCalls()).isZero();
        assertThat(this.clock.pendingTasks()).as("every wait's timer is gone").isZero();
    }

    @Test
    void waitersOnALimitOfOneAreGrantedInTheOrderTheyQueued() throws InterruptedException {
        Bulkhead bulkhead = Bulkhead.of("single",
                BulkheadConfig.builder().maxConcurrentCalls(1).maxWait(Duration.ofHours(1)).build(), this.clock);
        bulkhead.enter();
        ReentrantLock order = new ReentrantLock();
        ConcurrentLinkedQueue<Integer> queued = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Integer> granted = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(THREADS);
        for (int i = 0; i < THREADS; i++) {
            int index = i;
            start(() -> {
                CompletableFuture<?> entry;
                order.lock();
                try {
                    entry = bulkhead.enterAsync();
                    queued.add(index);
                }
                finally {
                    order.unlock();
                }
                granted(entry);
                granted.add(index);
                bulkhead.exit();
                done.countDown();
            });
        }
        BulkheadTests.awaitValue(bulkhead::waitingCalls, THREADS);

        bulkhead.exit();

        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(granted).containsExactlyElementsOf(queued);
        assertThat(bulkhead.concurrentCalls()).isZero();
    }

    @Test
    void callsArrivingWhileOthersWaitOnALimitOfOneAreGrantedInTheOrderTheyArrived() throws InterruptedException {
        Bulkhead bulkhead = Bulkhead.of("single",
                BulkheadConfig.builder().maxConcurrentCalls(1).maxWait(Duration.ofHours(1)).build(), this.clock);
        ReentrantLock arrivals = new ReentrantLock();
        AtomicLong tickets = new AtomicLong();
        List<Long> granted = new ArrayList<>();

        runAll(200, (thread, round) -> {
            CompletableFuture<?> entry;
            long ticket;
            arrivals.lock();
            try {
                entry = bulkhead.enterAsync();
                ticket = tickets.getAndIncrement();
            }
            finally {
                arrivals.unlock();
            }
            granted(entry);
            granted.add(ticket);
            this.calls.work();
            bulkhead.exit();
            elsewhere(thread + round);
        });

        assertThat(granted).as("one permit: each holder records its arrival before the next is granted")
            .hasSize(THREADS * 200)
            .isSorted();
        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(bulkhead.waitingCalls()).isZero();
    }

    @Test
    void exitsWithNoPermitOutFromTwoThreadsAtOnceNeverMoveThePermitsOutNorStrandAWaitingCall()
            throws InterruptedException, ExecutionException {
        Bulkhead bulkhead = Bulkhead.of("shared",
                BulkheadConfig.builder().maxConcurrentCalls(1).maxWait(Duration.ofHours(1)).build(), this.clock);
        AtomicBoolean over = new AtomicBoolean();
        AtomicLong refusedExits = new AtomicLong();
        for (int t = 0; t < 2; t++) {
            start(() -> {
                while (!over.get()) {
                    try {
                        bulkhead.exit();
                    }
                    catch (IllegalStateException ex) {
                        refusedExits.incrementAndGet();
                    }
                }
            });
        }
        int mostOut = 0;
        int stranded = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (System.nanoTime() - end < 0 && mostOut <= 1 && stranded == 0) {
            CompletableFuture<?> entry = bulkhead.enterAsync();
            mostOut = Math.max(mostOut, bulkhead.concurrentCalls());
            try {
                entry.get(10, TimeUnit.SECONDS);
            }
            catch (TimeoutException ex) {
                stranded++;
                continue;
            }
            try {
                bulkhead.exit();
            }
            catch (IllegalStateException ex) {
                // nothing tells this call's permit from none: an exit of the other
                // threads took it back
            }
        }
        over.set(true);
        stopThreads();

        assertThat(refusedExits.get()).isPositive();
        assertThat(mostOut).as("the most permits seen out, with a limit of one").isLessThanOrEqualTo(1);
        assertThat(stranded).as("calls left waiting while no permit was out").isZero();
        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(bulkhead.waitingCalls()).isZero();
        assertThat(bulkhead.enterAsync()).as("a free permit is taken without waiting").isDone();
    }

    /**
     * Works outside the bulkhead for a few microseconds, different each time, so that
     * calls arrive while a permit is on its way from the call that gave it back to the
     * first waiter.
     */
    private static void elsewhere(int seed) {
        long until = System.nanoTime() + 1_000 * (1 + seed % 20);
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    /**
     * Waits for a permit as a blocked caller would, ended by the interrupt of the test's
     * end.
     */
    private static Object granted(CompletableFuture<?> entry) throws InterruptedException {
        try {
            return entry.get();
        }
        catch (ExecutionException ex) {
            throw new IllegalStateException(ex.getCause());
        }
    }

    private void runAll(int rounds, Round round) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(THREADS);
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            start(() -> {
                start.await();
                for (int i = 0; i < rounds; i++) {
                    round.run(thread, i);
                }
                done.countDown();
            });
        }
        start.countDown();
        assertThat(done.await(60, TimeUnit.SECONDS)).as("every thread got its turns").isTrue();
    }

    private void start(BulkheadPermitTests.Waiting body) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }, "bulkhead-concurrency-test-" + this.threads.size());
        this.threads.add(thread);
        thread.start();
    }

    @FunctionalInterface
    private interface Round {

        void run(int thread, int round) throws InterruptedException;

    }

}
