package dev.resilience.core.circuitbreaker;

import java.util.concurrent.locks.ReentrantLock;

import dev.resilience.core.support.SecondBuckets;
import dev.resilience.core.time.TimeSource;

/**
 * The outcomes of the calls of the last {@code size} seconds, counted in a
 * {@link SecondBuckets} ring (calls, failed, slow) guarded by one {@link ReentrantLock}
 * (held for a few field updates, never while waiting on anything else). Seconds count
 * from the window's creation on {@link TimeSource#nanoTime()}.
 *
 * <p>
 * Cost: {@code record} and {@code snapshot} are O(1), plus the ring's amortised eviction
 * of the seconds that passed; {@code record} allocates nothing; memory is 24 bytes per
 * second of the window.
 */
final class TimeSlidingWindow implements SlidingWindow {

    private static final int CALLS = 0;

    private static final int FAILED = 1;

    private static final int SLOW = 2;

    private final ReentrantLock lock = new ReentrantLock();

    private final Thresholds thresholds;

    private final TimeSource timeSource;

    private final SecondBuckets counts;

    /**
     * Creates an empty window.
     * @param size the number of seconds it holds, from 1 to 3600
     * @param thresholds when its counts open the breaker
     * @param timeSource the clock that moves the window
     */
    TimeSlidingWindow(int size, Thresholds thresholds, TimeSource timeSource) {
        this.thresholds = thresholds;
        this.timeSource = timeSource;
        this.counts = new SecondBuckets(size, 3, timeSource.nanoTime());
    }

    @Override
    public boolean record(Outcome outcome) {
        this.lock.lock();
        try {
            this.counts.advanceTo(this.timeSource.nanoTime());
            this.counts.add(CALLS, 1);
            if (outcome.failed) {
                this.counts.add(FAILED, 1);
            }
            if (outcome.slow) {
                this.counts.add(SLOW, 1);
            }
            return this.thresholds.reached(this.counts.total(CALLS), this.counts.total(FAILED),
                    this.counts.total(SLOW));
        }
        finally {
            this.lock.unlock();
        }
    }

    @Override
    public WindowSnapshot snapshot() {
        this.lock.lock();
        try {
            this.counts.advanceTo(this.timeSource.nanoTime());
            return this.thresholds.snapshot(this.counts.total(CALLS), this.counts.total(FAILED),
                    this.counts.total(SLOW));
        }
        finally {
            this.lock.unlock();
        }
    }

}
