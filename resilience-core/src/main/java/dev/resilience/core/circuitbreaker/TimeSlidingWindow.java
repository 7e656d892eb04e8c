package dev.resilience.core.circuitbreaker;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

import dev.resilience.core.time.TimeSource;

/**
 * A ring of per-second buckets holding the outcomes of the calls of the last {@code size}
 * seconds, guarded by one {@link ReentrantLock} (held for a few field updates, never while
 * waiting on anything else).
 *
 * <p>When the clock enters a new second, the buckets of the seconds that left the window are
 * subtracted from the totals and cleared; a jump of the whole window or more clears it all.
 * Seconds count from the window's creation on {@link TimeSource#nanoTime()}.
 *
 * <p>Cost: {@code record} and {@code snapshot} are O(1), plus O(1) per bucket evicted,
 * amortised over the seconds that passed, at most {@code size}; neither allocates on
 * {@code record}; memory is 12 bytes per second of the window.
 */
final class TimeSlidingWindow implements SlidingWindow {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final ReentrantLock lock = new ReentrantLock();

    private final int size;

    private final Thresholds thresholds;

    private final TimeSource timeSource;

    private final long originNanos;

    private final int[] calls;

    private final int[] failed;

    private final int[] slow;

    private long currentSecond;

    private long totalCalls;

    private long totalFailed;

    private long totalSlow;

    /**
     * Creates an empty window.
     * @param size the number of seconds it holds, from 1 to 3600
     * @param thresholds when its counts open the breaker
     * @param timeSource the clock that moves the window
     */
    TimeSlidingWindow(int size, Thresholds thresholds, TimeSource timeSource) {
        this.size = size;
        this.thresholds = thresholds;
        this.timeSource = timeSource;
        this.originNanos = timeSource.nanoTime();
        this.calls = new int[size];
        this.failed = new int[size];
        this.slow = new int[size];
    }

    @Override
    public boolean record(Outcome outcome) {
        this.lock.lock();
        try {
            moveToNow();
            int bucket = (int) Math.floorMod(this.currentSecond, (long) this.size);
            this.calls[bucket]++;
            this.totalCalls++;
            if (outcome.failed) {
                this.failed[bucket]++;
                this.totalFailed++;
            }
            if (outcome.slow) {
                this.slow[bucket]++;
                this.totalSlow++;
            }
            return this.thresholds.reached(this.totalCalls, this.totalFailed, this.totalSlow);
        }
        finally {
            this.lock.unlock();
        }
    }

    @Override
    public WindowSnapshot snapshot() {
        this.lock.lock();
        try {
            moveToNow();
            return this.thresholds.snapshot(this.totalCalls, this.totalFailed, this.totalSlow);
        }
        finally {
            this.lock.unlock();
        }
    }

    private void moveToNow() {
        long second = Math.floorDiv(this.timeSource.nanoTime() - this.originNanos, NANOS_PER_SECOND);
        if (second <= this.currentSecond) {
            return;
        }
        if (second - this.currentSecond >= this.size) {
            clear();
        }
        else {
            for (long expired = this.currentSecond + 1; expired <= second; expired++) {
                evict((int) Math.floorMod(expired, (long) this.size));
            }
        }
        this.currentSecond = second;
    }

    private void evict(int bucket) {
        this.totalCalls -= this.calls[bucket];
        this.totalFailed -= this.failed[bucket];
        this.totalSlow -= this.slow[bucket];
        this.calls[bucket] = 0;
        this.failed[bucket] = 0;
        this.slow[bucket] = 0;
    }

    private void clear() {
        Arrays.fill(this.calls, 0);
        Arrays.fill(this.failed, 0);
        Arrays.fill(this.slow, 0);
        this.totalCalls = 0;
        this.totalFailed = 0;
        this.totalSlow = 0;
    }
}
