package dev.resilience.core.bulkhead;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The atomic word of a bulkhead: permits are taken up to the limit and only while no call
 * waits, a permit given back while calls wait is left to be handed over, and the count of
 * permits taken stays exact across the halves and the wrap-around of its bits.
 */
class OccupancyTests {

    @Test
    void permitsAreTakenUpToTheLimitAndGivenBack() {
        Occupancy occupancy = new Occupancy();

        assertThat(occupancy.tryTake(2)).isEqualTo(1);
        assertThat(occupancy.tryTake(2)).isEqualTo(2);
        assertThat(occupancy.tryTake(2)).as("full").isZero();
        assertThat(occupancy.release()).as("nobody waits").isFalse();
        assertThat(occupancy.inUse()).isOne();
        assertThat(occupancy.tryTake(2)).isEqualTo(2);

        assertThat(occupancy.taken()).isEqualTo(3);
    }

    @Test
    void whileCallsWaitNoPermitIsTakenAndAPermitGivenBackIsLeftToTheLockHolder() {
        Occupancy occupancy = new Occupancy();
        occupancy.tryTake(1);

        assertThat(occupancy.markQueued(1)).isTrue();
        assertThat(occupancy.release()).as("to be handed over by the lock's holder").isTrue();
        assertThat(occupancy.inUse()).isZero();
        assertThat(occupancy.tryTake(1)).as("a newcomer cannot overtake the waiter").isZero();
        assertThat(occupancy.handOver(1, false)).as("the waiter's permit").isEqualTo(1);
        assertThat(occupancy.release()).as("nobody waits any more").isFalse();

        assertThat(occupancy.taken()).as("a handed-over permit is the queue's to count").isOne();
    }

    @Test
    void callsAreNotMarkedWaitingWhileAPermitIsFree() {
        Occupancy occupancy = new Occupancy();
        occupancy.tryTake(2);

        assertThat(occupancy.markQueued(2)).isFalse();
        assertThat(occupancy.tryTake(2)).isEqualTo(2);
        assertThat(occupancy.markQueued(2)).isTrue();
        occupancy.clearQueued();
        assertThat(occupancy.release()).as("nobody waits").isFalse();
    }

    @Test
    void aHandOverLeavesTheMarkWhileOthersWaitAndStopsAtTheLimit() {
        Occupancy occupancy = new Occupancy();
        occupancy.tryTake(1);
        occupancy.markQueued(1);
        occupancy.release();

        assertThat(occupancy.handOver(1, true)).isEqualTo(1);
        assertThat(occupancy.handOver(1, true)).as("full").isZero();
        assertThat(occupancy.release()).as("others still wait").isTrue();
    }

    @Test
    void givingBackMoreThanIsOutIsRefusedAndChangesNothing() {
        Occupancy occupancy = new Occupancy();

        assertThatIllegalStateException().isThrownBy(occupancy::release);

        assertThat(occupancy.inUse()).isZero();
        assertThat(occupancy.tryTake(1)).isEqualTo(1);
        assertThat(occupancy.taken()).isOne();
    }

    @Test
    void aPermitGivenBackWhileAnotherRefusedGiveBackIsNotYetUndoneIsRefusedToo() throws ReflectiveOperationException {
        Occupancy occupancy = new Occupancy();
        occupancy.tryTake(1);
        occupancy.release();
        RefusedGiveBack first = RefusedGiveBack.addedTo(occupancy);

        assertThatIllegalStateException().as("no permit is out for this one either").isThrownBy(occupancy::release);
        first.undo();

        assertThat(occupancy.inUse()).isZero();
        assertThat(occupancy.tryTake(1)).isEqualTo(1);
        assertThat(occupancy.taken()).isEqualTo(2);
    }

    @Test
    void aCallMarkedWaitingWhileARefusedGiveBackIsNotYetUndoneStaysMarked() throws ReflectiveOperationException {
        Occupancy occupancy = new Occupancy();
        RefusedGiveBack refused = RefusedGiveBack.addedTo(occupancy);

        assertThat(occupancy.tryTake(1)).as("the word looks full").isZero();
        assertThat(occupancy.markQueued(1)).isTrue();
        refused.undo();

        assertThat(occupancy.inUse()).isZero();
        assertThat(occupancy.tryTake(1)).as("a newcomer cannot overtake the waiter").isZero();
        assertThat(occupancy.handOver(1, false)).as("the waiter's permit").isEqualTo(1);
        assertThat(occupancy.release()).as("nobody waits any more").isFalse();
        assertThat(occupancy.taken()).isZero();
    }

    @Test
    void theCountStaysExactAndNeverFallsAcrossItsHalvesAndItsWrapAround() {
        long half = 1L << (Occupancy.TAKEN_BITS - 1);
        for (long start : new long[] { half - 5, 2 * half - 5, 3 * half - 5, 4 * half - 5 }) {
            Occupancy occupancy = new Occupancy(start);
            List<Long> counts = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                occupancy.tryTake(1);
                counts.add(occupancy.taken());
                occupancy.release();
            }
            assertThat(counts).as("from %d", start).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        }
    }

    @Test
    void concurrentTakersAndGiversLeaveTheCountExactAndNoPermitOut() throws InterruptedException {
        Occupancy occupancy = new Occupancy((1L << Occupancy.TAKEN_BITS) - 20_000);
        int threads = 8;
        int rounds = 10_000;
        AtomicInteger taken = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(threads);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < rounds; i++) {
                    int inflight = occupancy.tryTake(3);
                    if (inflight > 0) {
                        peak.accumulateAndGet(inflight, Math::max);
                        taken.incrementAndGet();
                        occupancy.release();
                    }
                }
                done.countDown();
            });
            started.add(thread);
            thread.start();
        }

        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        for (Thread thread : started) {
            thread.join(10_000);
        }
        assertThat(peak.get()).isBetween(1, 3);
        assertThat(occupancy.taken()).as("across the wrap-around").isEqualTo(taken.get());
        assertThat(occupancy.inUse()).isZero();
    }

    /**
     * The atomic addition of a give-back with no permit out, caught before it is undone,
     * as another thread sees the word in between.
     */
    private static final class RefusedGiveBack {

        private final Occupancy occupancy;

        private final Field word;

        private RefusedGiveBack(Occupancy occupancy) throws ReflectiveOperationException {
            this.occupancy = occupancy;
            this.word = Occupancy.class.getDeclaredField("word");
            this.word.setAccessible(true);
        }

        static RefusedGiveBack addedTo(Occupancy occupancy) throws ReflectiveOperationException {
            RefusedGiveBack refused = new RefusedGiveBack(occupancy);
            refused.add(-1);
            return refused;
        }

        void undo() throws ReflectiveOperationException {
            add(1);
        }

        private void add(long delta) throws ReflectiveOperationException {
            this.word.setLong(this.occupancy, this.word.getLong(this.occupancy) + delta);
        }

    }

}
