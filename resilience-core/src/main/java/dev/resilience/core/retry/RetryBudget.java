package dev.resilience.core.retry;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import dev.resilience.core.time.TimeSource;

/**
 * A cap on retries relative to calls, so that retries cannot multiply the load on a failing
 * dependency: a retry is admitted only while, with it, the retries in the window stay within
 * {@code max(ratio * calls in the window, minRetriesPerSecond * window seconds)}.
 *
 * <p>One budget is shared by all calls of one retry instance. It counts in a ring of
 * per-second buckets spanning the window; totals are kept by subtracting the buckets that
 * leave it, so an entry leaves the window between {@code window - 1s} and {@code window}
 * after it was recorded. A clock jump beyond the window clears it.
 *
 * <p>Thread-safe. Counting a call, the operation of every call, takes no lock while the
 * clock stays in the current second: it adds to an atomic counter of pending calls. Every
 * other operation reads the time source once, then holds a {@link ReentrantLock} (never
 * {@code synchronized}) to fold the pending calls into the current second's bucket, evict one
 * bucket per second the clock has moved since the previous operation (never more than the
 * window's buckets) and decide; so the cost is O(1) amortized and the admission decision is
 * exact under concurrency. A call counted while another thread moves to the next second may
 * be folded into that next second. Memory: two {@code long} arrays of one slot per window
 * second.
 */
public final class RetryBudget {

    /** The default ratio of retries to calls: 0.1, one retry per ten calls. */
    public static final double DEFAULT_RATIO = 0.1;

    /** The default number of retries per second always allowed, whatever the calls: 10. */
    public static final int DEFAULT_MIN_RETRIES_PER_SECOND = 10;

    /** The default window: 10 seconds. */
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);

    private static final Duration MAX_WINDOW = Duration.ofHours(1);
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long RATIO_SCALE = 1_000_000L;

    private final ReentrantLock lock = new ReentrantLock();
    private final double ratio;
    private final int minRetriesPerSecond;
    private final Duration window;
    private final TimeSource timeSource;
    private final long ratioMillionths;
    private final long minRetriesInWindow;
    private final long originNanos;
    private final long[] calls;
    private final long[] retries;
    private final AtomicLong pendingCalls = new AtomicLong();
    private volatile long currentSecond;
    private long callTotal;
    private long retryTotal;
    private long refused;

    /**
     * Creates an empty budget.
     * @param ratio the retries allowed per call in the window, in {@code [0, 1000]}; counted to
     * the millionth
     * @param minRetriesPerSecond the retries per second allowed even without calls, 0 or more
     * @param window how far back calls and retries count, from 1 second to 1 hour; a fraction
     * of a second is rounded up to a whole second
     * @param timeSource where the budget reads time
     * @throws IllegalArgumentException naming the setting that is out of range
     */
    public RetryBudget(double ratio, int minRetriesPerSecond, Duration window, TimeSource timeSource) {
        if (!(ratio >= 0 && ratio <= 1000)) {
            throw new IllegalArgumentException("ratio must be between 0 and 1000, was " + ratio);
        }
        if (minRetriesPerSecond < 0) {
            throw new IllegalArgumentException("minRetriesPerSecond must be >= 0, was " + minRetriesPerSecond);
        }
        Objects.requireNonNull(window, "window must not be null");
        if (window.compareTo(Duration.ofSeconds(1)) < 0 || window.compareTo(MAX_WINDOW) > 0) {
            throw new IllegalArgumentException("window must be between 1s and 1h, was " + window);
        }
        this.ratio = ratio;
        this.minRetriesPerSecond = minRetriesPerSecond;
        this.window = window;
        this.timeSource = Objects.requireNonNull(timeSource, "timeSource must not be null");
        int seconds = (int) window.toSeconds() + ((window.getNano() > 0) ? 1 : 0);
        this.ratioMillionths = Math.round(ratio * RATIO_SCALE);
        this.minRetriesInWindow = (long) minRetriesPerSecond * seconds;
        this.calls = new long[seconds];
        this.retries = new long[seconds];
        this.originNanos = timeSource.nanoTime();
    }

    /**
     * Returns the retries allowed per call in the window.
     * @return the ratio
     */
    public double ratio() {
        return this.ratio;
    }

    /**
     * Returns the retries per second allowed even without calls.
     * @return the floor per second
     */
    public int minRetriesPerSecond() {
        return this.minRetriesPerSecond;
    }

    /**
     * Returns how far back calls and retries count.
     * @return the window, as given
     */
    public Duration window() {
        return this.window;
    }

    /**
     * Counts one client call entering, its first attempt. Retries are not calls.
     */
    public void recordCall() {
        recordCall(this.timeSource.nanoTime());
    }

    /**
     * Counts one client call entering at a time the caller has just read, saving a read of
     * the clock.
     * @param nowNanos the current {@link TimeSource#nanoTime()} of this budget's time source
     * @see #usesTimeSource(TimeSource)
     */
    public void recordCall(long nowNanos) {
        if (secondOf(nowNanos) == this.currentSecond) {
            this.pendingCalls.incrementAndGet();
            return;
        }
        this.lock.lock();
        try {
            int bucket = advance(nowNanos);
            this.calls[bucket]++;
            this.callTotal++;
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Returns whether this budget reads time from the given source, so that a time read from
     * it may be passed to {@link #recordCall(long)}.
     * @param timeSource a time source
     * @return {@code true} if it is this budget's
     */
    public boolean usesTimeSource(TimeSource timeSource) {
        return this.timeSource == timeSource;
    }

    /**
     * Asks for one retry; a granted retry is counted, a refused one only adds to
     * {@link #refusedTotal()}.
     * @return {@code true} if, with this retry, the retries in the window stay within
     * {@code max(ratio * calls in the window, minRetriesPerSecond * window seconds)}
     */
    public boolean tryAcquireRetry() {
        long now = this.timeSource.nanoTime();
        this.lock.lock();
        try {
            int bucket = advance(now);
            if (this.retryTotal < Math.max(retriesAllowedByRatio(), this.minRetriesInWindow)) {
                this.retries[bucket]++;
                this.retryTotal++;
                return true;
            }
            this.refused++;
            return false;
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Returns the calls recorded in the current window.
     * @return the number of calls
     */
    public long callsInWindow() {
        long now = this.timeSource.nanoTime();
        this.lock.lock();
        try {
            advance(now);
            return this.callTotal;
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Returns the retries granted in the current window.
     * @return the number of retries
     */
    public long retriesInWindow() {
        long now = this.timeSource.nanoTime();
        this.lock.lock();
        try {
            advance(now);
            return this.retryTotal;
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Returns how many retries this budget has refused since it was created.
     * @return the number of refusals
     */
    public long refusedTotal() {
        this.lock.lock();
        try {
            return this.refused;
        }
        finally {
            this.lock.unlock();
        }
    }

    private long retriesAllowedByRatio() {
        if (this.ratioMillionths == 0) {
            return 0;
        }
        if (this.callTotal > Long.MAX_VALUE / this.ratioMillionths) {
            return Long.MAX_VALUE;
        }
        return this.callTotal * this.ratioMillionths / RATIO_SCALE;
    }

    private long secondOf(long nowNanos) {
        return Math.floorDiv(nowNanos - this.originNanos, NANOS_PER_SECOND);
    }

    private int advance(long nowNanos) {
        int size = this.calls.length;
        long pending = this.pendingCalls.getAndSet(0);
        if (pending != 0) {
            this.calls[(int) Math.floorMod(this.currentSecond, size)] += pending;
            this.callTotal += pending;
        }
        long second = secondOf(nowNanos);
        long elapsed = second - this.currentSecond;
        if (elapsed >= size) {
            Arrays.fill(this.calls, 0);
            Arrays.fill(this.retries, 0);
            this.callTotal = 0;
            this.retryTotal = 0;
            this.currentSecond = second;
        }
        else if (elapsed > 0) {
            for (long evicted = this.currentSecond + 1; evicted <= second; evicted++) {
                int bucket = (int) Math.floorMod(evicted, size);
                this.callTotal -= this.calls[bucket];
                this.retryTotal -= this.retries[bucket];
                this.calls[bucket] = 0;
                this.retries[bucket] = 0;
            }
            this.currentSecond = second;
        }
        return (int) Math.floorMod(this.currentSecond, size);
    }
}
