package dev.resilience.core.circuitbreaker;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A ring of the outcomes of the last {@code size} calls, lock-free.
 *
 * <p>
 * A sequence number picks the slot, the outcome's code is swapped into it, and the
 * totals, packed into one {@code long} by {@link PackedCounts}, change by one atomic add
 * of the new outcome's counts minus the evicted one's. Whatever order racing recorders
 * run these steps in, every slot's adds telescope to its current content, so once they
 * finish the totals are exact; while they run, a snapshot can be off by at most the
 * number of racing recorders.
 *
 * <p>
 * A slot that already holds the outcome being recorded is left unwritten, as is the
 * total: such a swap changes nothing, and can be ordered at the moment the slot was read.
 * So in a steady state, where each call's outcome is the one it evicts, concurrent
 * recorders share only the sequence number, and the window scales across cores.
 *
 * <p>
 * Cost: {@code record} is one to three atomic operations and allocates nothing;
 * {@code snapshot} is one atomic read; memory is 4 bytes per call of the window.
 */
final class CountSlidingWindow implements SlidingWindow {

    private static final int EMPTY = 0;

    private static final long[] PACKED_BY_CODE = new long[Outcome.values().length + 1];

    static {
        for (Outcome outcome : Outcome.values()) {
            PACKED_BY_CODE[code(outcome)] = PackedCounts.of(outcome);
        }
    }

    private final int size;

    private final Thresholds thresholds;

    private final AtomicIntegerArray slots;

    private final AtomicLong sequence = new AtomicLong();

    private final AtomicLong totals = new AtomicLong();

    /**
     * Creates an empty window.
     * @param size the number of calls it holds, from 1 to 1,000,000
     * @param thresholds when its counts open the breaker
     */
    CountSlidingWindow(int size, Thresholds thresholds) {
        this.size = size;
        this.thresholds = thresholds;
        this.slots = new AtomicIntegerArray(size);
    }

    @Override
    public boolean record(Outcome outcome) {
        int slot = (int) (this.sequence.getAndIncrement() % this.size);
        int code = code(outcome);
        int evicted = this.slots.get(slot);
        if (evicted != code) {
            evicted = this.slots.getAndSet(slot, code);
        }
        long packed = (evicted != code) ? this.totals.addAndGet(PACKED_BY_CODE[code] - PACKED_BY_CODE[evicted])
                : this.totals.get();
        int calls = calls(packed);
        return this.thresholds.reached(calls, within(PackedCounts.failed(packed), calls),
                within(PackedCounts.slow(packed), calls));
    }

    @Override
    public WindowSnapshot snapshot() {
        long packed = this.totals.get();
        int calls = calls(packed);
        return this.thresholds.snapshot(calls, within(PackedCounts.failed(packed), calls),
                within(PackedCounts.slow(packed), calls));
    }

    private int calls(long packed) {
        return within(PackedCounts.calls(packed), this.size);
    }

    private static int within(int count, int max) {
        return Math.max(0, Math.min(count, max));
    }

    private static int code(Outcome outcome) {
        return outcome.ordinal() + 1;
    }

}
