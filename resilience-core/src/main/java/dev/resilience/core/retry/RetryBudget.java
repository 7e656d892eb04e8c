package dev.resilience.core.retry;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

import dev.resilience.core.support.SecondBuckets;
import dev.resilience.core.time.Durations;
import dev.resilience.core.time.TimeSource;

/**
 * A cap on retries relative to calls, so that retries cannot multiply the load on a
 * failing dependency. A retry is admitted only when two rules both allow it:
 *
 * <ul>
 * <li><b>The window</b> bounds the long-run ratio: with the retry, the retries in the
 * window stay within
 * {@code max(ratio * calls in the window, minRetriesPerSecond * window seconds)}.
 * <li><b>The token bucket</b> bounds every second, as gRPC's retry throttling does: each
 * call puts {@code ratio} tokens in, the floor adds {@code minRetriesPerSecond} tokens
 * per second, continuously, and a retry takes one token out. The bucket holds one second
 * of the floor (at least one token) plus one call's tokens,
 * {@code max(1, minRetriesPerSecond) + ratio}, and starts with one second of the floor.
 * </ul>
 *
 * <p>
 * Why that capacity. The window alone lets its whole allowance through at once: when an
 * outage starts after a quiet stretch, or when a busy second leaves the window, a second
 * could take a window's worth of retries (the retry-storm simulator measured 1.96x normal
 * load in such seconds for an average of 1.10x). A bucket spends in any one-second span
 * at most what it holds plus what that span earns, so no second grants more than
 * {@code ratio * (its calls + 1) + minRetriesPerSecond + max(1, minRetriesPerSecond)}
 * retries: an outage sends about {@code (1 + ratio)} times normal load in every second,
 * its first one included. So the tokens that calls earn are not banked: a capacity scaled
 * to the call rate (a second's worth of the ratio, say) would let the first second of an
 * outage spend the tokens of the calls before it on top of its own, about
 * {@code (1 + 2 * ratio)} times normal load. One second of the floor is kept because the
 * floor is what a lightly used instance lives on: a handful of calls failing together may
 * all be retried at once, as "{@code minRetriesPerSecond} retries per second" promises;
 * after that, the floor's retries come evenly, one every {@code 1 / minRetriesPerSecond}
 * second. One call's tokens on top, so that a call's tokens are never lost while the
 * bucket, nearly full, waits for the next retry: while retries are asked for, the bucket
 * grants exactly what it earns. A burst of calls earns at most the capacity at once, so
 * with no floor the retries follow the calls that earn them.
 *
 * <p>
 * The window counts in a {@link SecondBuckets} ring (calls, retries); totals are kept by
 * subtracting the buckets that leave it, so an entry leaves the window between
 * {@code window - 1s} and {@code window} after it was recorded. Tokens are counted in
 * millionths, so the ratio counts to the millionth and the floor accrues without rounding
 * drift. A clock jump beyond the window clears the window, and the bucket earns the
 * floor's tokens for the time that passed, up to its capacity, without overflowing; a
 * clock going back earns no tokens.
 *
 * <p>
 * Thread-safe. Counting a call, the operation of every call, takes no lock while the
 * clock stays in the current second: it adds to a striped counter of pending calls (a
 * {@link java.util.concurrent.atomic.LongAdder}, so that threads counting at once do not
 * contend for one word; it allocates its stripes once, the first times threads collide),
 * which the next locked operation turns into window counts and tokens. Every other
 * operation holds a {@link ReentrantLock} (never {@code synchronized}), reads the time
 * source once inside it, so that a time read earlier by one thread never takes the bucket
 * back behind a later one, and then folds the pending calls in, adds the floor's tokens
 * since the previous operation, evicts one bucket per second the clock has moved (never
 * more than the window's buckets) and decides; so the cost is O(1) amortized and the
 * admission decision is exact under concurrency. A call counted with a time from before
 * the bucket's last refill (read before another thread's operation) counts in the current
 * second and earns no floor tokens, which were already earned. A call counted while
 * another thread moves to the next second may be folded into that next second. Memory: 16
 * bytes per window second, and once threads have collided counting calls, one padded
 * stripe per collision up to about the number of processors.
 */
public final class RetryBudget {

    /** The default ratio of retries to calls: 0.1, one retry per ten calls. */
    public static final double DEFAULT_RATIO = 0.1;

    /**
     * The default number of retries per second always allowed, whatever the calls: 10.
     */
    public static final int DEFAULT_MIN_RETRIES_PER_SECOND = 10;

    /** The default window: 10 seconds. */
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);

    /**
     * The largest ratio of retries to calls: 1000. The smallest is 0, no retry beyond the
     * floor.
     */
    public static final int MAX_RATIO = 1000;

    /** The shortest window: 1 second. */
    public static final Duration MIN_WINDOW = Duration.ofSeconds(1);

    /** The longest window: 1 hour. */
    public static final Duration MAX_WINDOW = Duration.ofHours(1);

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private static final int CALLS = 0;

    private static final int RETRIES = 1;

    private static final long TOKEN = 1_000_000L;

    private static final long NANOS_PER_FLOOR_MILLIONTH = NANOS_PER_SECOND / TOKEN;

    private final ReentrantLock lock = new ReentrantLock();

    private final double ratio;

    private final int minRetriesPerSecond;

    private final Duration window;

    private final TimeSource timeSource;

    private final long ratioMillionths;

    private final long minRetriesInWindow;

    private final long capacity;

    private final long fillNanos;

    private final SecondBuckets counts;

    /** The calls of the current second not yet folded into the window. */
    private final LongAdder pendingCalls = new LongAdder();

    private volatile long currentSecond;

    private long refused;

    private long tokens;

    private long refilledAtNanos;

    private long floorRemainder;

    /**
     * Creates a budget with an empty window and one second of the floor in its bucket.
     * @param ratio the retries allowed per call in the window, from 0 to
     * {@link #MAX_RATIO}; counted to the millionth
     * @param minRetriesPerSecond the retries per second allowed even without calls, 0 or
     * more
     * @param window how far back calls and retries count, from {@link #MIN_WINDOW} to
     * {@link #MAX_WINDOW}; a fraction of a second is rounded up to a whole second
     * @param timeSource where the budget reads time
     * @throws IllegalArgumentException naming the setting that is out of range
     */
    public RetryBudget(double ratio, int minRetriesPerSecond, Duration window, TimeSource timeSource) {
        if (!(ratio >= 0 && ratio <= MAX_RATIO)) {
            throw new IllegalArgumentException("ratio must be between 0 and " + MAX_RATIO + ", was " + ratio);
        }
        if (minRetriesPerSecond < 0) {
            throw new IllegalArgumentException("minRetriesPerSecond must be >= 0, was " + minRetriesPerSecond);
        }
        Objects.requireNonNull(window, "window must not be null");
        if (window.compareTo(MIN_WINDOW) < 0 || window.compareTo(MAX_WINDOW) > 0) {
            throw new IllegalArgumentException("window must be between " + Durations.format(MIN_WINDOW) + " and "
                    + Durations.format(MAX_WINDOW) + ", was " + window);
        }
        this.ratio = ratio;
        this.minRetriesPerSecond = minRetriesPerSecond;
        this.window = window;
        this.timeSource = Objects.requireNonNull(timeSource, "timeSource must not be null");
        int seconds = (int) window.toSeconds() + ((window.getNano() > 0) ? 1 : 0);
        this.ratioMillionths = Math.round(ratio * TOKEN);
        this.minRetriesInWindow = (long) minRetriesPerSecond * seconds;
        this.capacity = Math.max(1, minRetriesPerSecond) * TOKEN + this.ratioMillionths;
        this.fillNanos = (minRetriesPerSecond == 0) ? Long.MAX_VALUE
                : -Math.floorDiv(-this.capacity * NANOS_PER_FLOOR_MILLIONTH, minRetriesPerSecond);
        long originNanos = timeSource.nanoTime();
        this.counts = new SecondBuckets(seconds, 2, originNanos);
        this.refilledAtNanos = originNanos;
        this.tokens = minRetriesPerSecond * TOKEN;
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
     * Counts one client call entering, its first attempt, which earns the bucket
     * {@code ratio} tokens. Retries are not calls.
     */
    public void recordCall() {
        recordCall(this.timeSource.nanoTime());
    }

    /**
     * Counts one client call entering at a time the caller has just read, saving a read
     * of the clock.
     * @param nowNanos the current {@link TimeSource#nanoTime()} of this budget's time
     * source
     * @see #usesTimeSource(TimeSource)
     */
    public void recordCall(long nowNanos) {
        if (this.counts.secondOf(nowNanos) == this.currentSecond) {
            this.pendingCalls.increment();
            return;
        }
        this.lock.lock();
        try {
            if (nowNanos - this.refilledAtNanos >= 0) {
                advance(nowNanos);
            }
            else {
                foldPendingCalls();
            }
            this.counts.add(CALLS, 1);
            deposit(1);
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Returns whether this budget reads time from the given source, so that a time read
     * from it may be passed to {@link #recordCall(long)}.
     * @param timeSource a time source
     * @return {@code true} if it is this budget's
     */
    public boolean usesTimeSource(TimeSource timeSource) {
        return this.timeSource == timeSource;
    }

    /**
     * Asks for one retry; a granted retry is counted and takes a token, a refused one
     * only adds to {@link #refusedTotal()}.
     * @return {@code true} if, with this retry, the retries in the window stay within
     * {@code max(ratio * calls in the window, minRetriesPerSecond * window seconds)} and
     * the bucket holds a whole token
     */
    public boolean tryAcquireRetry() {
        this.lock.lock();
        try {
            advance(this.timeSource.nanoTime());
            if (this.counts.total(RETRIES) < Math.max(retriesAllowedByRatio(), this.minRetriesInWindow)
                    && this.tokens >= TOKEN) {
                this.tokens -= TOKEN;
                this.counts.add(RETRIES, 1);
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
        this.lock.lock();
        try {
            advance(this.timeSource.nanoTime());
            return this.counts.total(CALLS);
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
        this.lock.lock();
        try {
            advance(this.timeSource.nanoTime());
            return this.counts.total(RETRIES);
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

    /**
     * Puts the budget back as it was created: an empty window and one second of the floor
     * in its bucket; the calls counted but not yet folded in are dropped with the rest.
     * {@link #refusedTotal()} is kept, so the counters read from it never go back. For
     * tests, between one and the next. Thread-safe: a call that asks for a retry during
     * the reset is judged before it or after it, on the old budget or the fresh one.
     */
    public void reset() {
        this.lock.lock();
        try {
            long nowNanos = this.timeSource.nanoTime();
            this.pendingCalls.reset();
            this.counts.advanceTo(nowNanos);
            this.counts.clear();
            this.currentSecond = this.counts.currentSecond();
            this.tokens = this.minRetriesPerSecond * TOKEN;
            this.refilledAtNanos = Math.max(this.refilledAtNanos, nowNanos);
            this.floorRemainder = 0;
        }
        finally {
            this.lock.unlock();
        }
    }

    private long retriesAllowedByRatio() {
        if (this.ratioMillionths == 0) {
            return 0;
        }
        long calls = this.counts.total(CALLS);
        if (calls > Long.MAX_VALUE / this.ratioMillionths) {
            return Long.MAX_VALUE;
        }
        return calls * this.ratioMillionths / TOKEN;
    }

    private void deposit(long newCalls) {
        if (this.ratioMillionths == 0) {
            return;
        }
        long room = this.capacity - this.tokens;
        this.tokens = (newCalls >= -Math.floorDiv(-room, this.ratioMillionths)) ? this.capacity
                : this.tokens + newCalls * this.ratioMillionths;
    }

    private void foldPendingCalls() {
        long pending = this.pendingCalls.sumThenReset();
        if (pending != 0) {
            this.counts.add(CALLS, pending);
            deposit(pending);
        }
    }

    private void refill(long nowNanos) {
        long elapsed = nowNanos - this.refilledAtNanos;
        this.refilledAtNanos = nowNanos;
        if (elapsed <= 0 || this.minRetriesPerSecond == 0) {
            return;
        }
        long remainder = this.floorRemainder;
        // (minRetriesPerSecond * elapsed + remainder) % 1000 without the product, which
        // may overflow
        this.floorRemainder = ((this.minRetriesPerSecond % NANOS_PER_FLOOR_MILLIONTH)
                * (elapsed % NANOS_PER_FLOOR_MILLIONTH) + remainder) % NANOS_PER_FLOOR_MILLIONTH;
        if (elapsed >= this.fillNanos) {
            this.tokens = this.capacity;
            return;
        }
        long earned = (this.minRetriesPerSecond * elapsed + remainder) / NANOS_PER_FLOOR_MILLIONTH;
        this.tokens = Math.min(this.capacity, this.tokens + earned);
    }

    private void advance(long nowNanos) {
        foldPendingCalls();
        refill(nowNanos);
        this.counts.advanceTo(nowNanos);
        this.currentSecond = this.counts.currentSecond();
    }

}
