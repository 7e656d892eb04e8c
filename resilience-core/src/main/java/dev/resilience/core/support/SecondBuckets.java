package dev.resilience.core.support;

import java.util.Arrays;

/**
 * A ring of per-second buckets, each holding a few counters, with a running total of each
 * counter over the seconds the ring spans: the window of the retry budget and of the
 * breaker's time-based sliding window.
 *
 * <p>
 * Seconds count from an origin on the caller's clock ({@code TimeSource.nanoTime()}), so
 * the ring never reads a clock itself. {@link #advanceTo} moves the current second
 * forward: the buckets of the seconds that leave the ring are subtracted from the totals
 * and cleared, and a move of the whole ring or more clears it all. A time before the
 * current second (a clock going back) leaves the ring where it is, so counts keep going
 * to the current second. An entry thus leaves the totals between {@code seconds - 1} and
 * {@code seconds} seconds after it was added.
 *
 * <p>
 * Cost: {@link #add} and {@link #total} are O(1); {@link #advanceTo} is O(1) plus O(1)
 * per second passed, at most {@code seconds} (then one clear of the ring), so amortised
 * O(1) over the time that passed. Nothing allocates after construction. Memory: 8 bytes
 * per counter per second. Not thread-safe: the owner guards it, as both users do with
 * their lock.
 */
public final class SecondBuckets {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final int seconds;

    private final int counters;

    private final long originNanos;

    private final long[] buckets;

    private final long[] totals;

    private long currentSecond;

    /**
     * Creates an empty ring whose current second is the one of {@code originNanos}.
     * @param seconds the seconds it spans, at least 1
     * @param counters the counters of each bucket, at least 1
     * @param originNanos the time, on the caller's clock, at which second 0 starts
     * @throws IllegalArgumentException if {@code seconds} or {@code counters} is less
     * than 1
     */
    public SecondBuckets(int seconds, int counters, long originNanos) {
        if (seconds < 1 || counters < 1) {
            throw new IllegalArgumentException(
                    "seconds and counters must be at least 1, were " + seconds + " and " + counters);
        }
        this.seconds = seconds;
        this.counters = counters;
        this.originNanos = originNanos;
        this.buckets = new long[Math.multiplyExact(seconds, counters)];
        this.totals = new long[counters];
    }

    /**
     * Returns the seconds the ring spans.
     * @return the number of buckets
     */
    public int seconds() {
        return this.seconds;
    }

    /**
     * Returns the second a time falls in, counted from the origin; reads only final
     * fields, so it may be called without the owner's lock.
     * @param nanos a time on the caller's clock
     * @return the second, negative before the origin
     */
    public long secondOf(long nanos) {
        return Math.floorDiv(nanos - this.originNanos, NANOS_PER_SECOND);
    }

    /**
     * Returns the second that {@link #add} counts in.
     * @return the current second, counted from the origin
     */
    public long currentSecond() {
        return this.currentSecond;
    }

    /**
     * Moves the current second to the one of a time, evicting the buckets that leave the
     * ring; a time at or before the current second changes nothing.
     * @param nowNanos the current time on the caller's clock
     */
    public void advanceTo(long nowNanos) {
        long second = secondOf(nowNanos);
        long elapsed = second - this.currentSecond;
        if (elapsed <= 0) {
            return;
        }
        if (elapsed >= this.seconds) {
            Arrays.fill(this.buckets, 0);
            Arrays.fill(this.totals, 0);
        }
        else {
            for (long evicted = this.currentSecond + 1; evicted <= second; evicted++) {
                evict(bucketStart(evicted));
            }
        }
        this.currentSecond = second;
    }

    /**
     * Empties every bucket and total, leaving the current second where it is.
     */
    public void clear() {
        Arrays.fill(this.buckets, 0);
        Arrays.fill(this.totals, 0);
    }

    /**
     * Adds to a counter of the current second's bucket and to its total.
     * @param counter the counter's index, from 0 to {@code counters - 1}
     * @param amount what to add
     */
    public void add(int counter, long amount) {
        this.buckets[bucketStart(this.currentSecond) + counter] += amount;
        this.totals[counter] += amount;
    }

    /**
     * Returns a counter's total over the ring, as of the last {@link #advanceTo}.
     * @param counter the counter's index, from 0 to {@code counters - 1}
     * @return the sum of the counter over every bucket
     */
    public long total(int counter) {
        return this.totals[counter];
    }

    private int bucketStart(long second) {
        return (int) Math.floorMod(second, (long) this.seconds) * this.counters;
    }

    private void evict(int start) {
        for (int counter = 0; counter < this.counters; counter++) {
            this.totals[counter] -= this.buckets[start + counter];
            this.buckets[start + counter] = 0;
        }
    }

}
