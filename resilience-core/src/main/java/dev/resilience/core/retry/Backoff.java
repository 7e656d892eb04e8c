package dev.resilience.core.retry;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

import org.jspecify.annotations.Nullable;

/**
 * The waits between attempts: an exponential delay, capped, spread by a {@link Jitter}.
 *
 * <p>
 * The base delay before retry {@code n} (the first retry being 1) is
 * {@code min(maxDelay, delay * multiplier^(n - 1))}. {@link #nextDelayNanos} draws the
 * actual wait from it according to the jitter mode. Immutable and thread-safe; drawing a
 * delay allocates nothing.
 */
public final class Backoff {

    /** The default first delay: 200 milliseconds. */
    public static final Duration DEFAULT_DELAY = Duration.ofMillis(200);

    /** The default longest delay: 5 seconds. */
    public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(5);

    /** The default exponential factor: 2.0. */
    public static final double DEFAULT_MULTIPLIER = 2.0;

    /** The default jitter mode: {@link Jitter#FULL}. */
    public static final Jitter DEFAULT_JITTER = Jitter.FULL;

    /** The smallest exponential factor: 1.0, which keeps the delay fixed. */
    public static final double MIN_MULTIPLIER = 1.0;

    private static final Backoff NONE = new Backoff(Duration.ZERO, 1.0, Duration.ZERO, Jitter.NONE);

    private final Duration delay;

    private final double multiplier;

    private final Duration maxDelay;

    private final Jitter jitter;

    private final long delayNanos;

    private final long maxDelayNanos;

    private Backoff(Duration delay, double multiplier, Duration maxDelay, Jitter jitter) {
        this.delay = delay;
        this.multiplier = multiplier;
        this.maxDelay = maxDelay;
        this.jitter = jitter;
        this.delayNanos = delay.toNanos();
        this.maxDelayNanos = maxDelay.toNanos();
    }

    /**
     * Returns a backoff with the given settings.
     * @param delay the first delay, zero or more
     * @param multiplier the exponential factor, finite and at least
     * {@link #MIN_MULTIPLIER} (which keeps the delay fixed)
     * @param maxDelay the longest delay, at least {@code delay}
     * @param jitter how delays are spread
     * @return the backoff
     * @throws IllegalArgumentException naming the setting that is out of range
     */
    public static Backoff of(Duration delay, double multiplier, Duration maxDelay, Jitter jitter) {
        Objects.requireNonNull(jitter, "jitter must not be null");
        long delayNanos = toNanos(delay, "delay");
        long maxDelayNanos = toNanos(maxDelay, "maxDelay");
        if (!(multiplier >= MIN_MULTIPLIER) || Double.isInfinite(multiplier)) {
            throw new IllegalArgumentException(
                    "multiplier must be a finite number >= " + MIN_MULTIPLIER + ", was " + multiplier);
        }
        if (maxDelayNanos < delayNanos) {
            throw new IllegalArgumentException("maxDelay must not be less than delay (" + delay + "), was " + maxDelay);
        }
        return new Backoff(delay, multiplier, maxDelay, jitter);
    }

    /**
     * Returns a backoff that never waits.
     * @return a backoff whose delays are all zero
     */
    public static Backoff none() {
        return NONE;
    }

    /**
     * Returns the first delay.
     * @return the delay before the first retry, before jitter
     */
    public Duration delay() {
        return this.delay;
    }

    /**
     * Returns the exponential factor.
     * @return the factor applied to the delay at each retry
     */
    public double multiplier() {
        return this.multiplier;
    }

    /**
     * Returns the longest delay.
     * @return the cap on every delay
     */
    public Duration maxDelay() {
        return this.maxDelay;
    }

    /**
     * Returns the jitter mode.
     * @return how delays are spread
     */
    public Jitter jitter() {
        return this.jitter;
    }

    /**
     * Returns the delay before a retry, before jitter.
     * @param retry the retry's number, the first retry (second attempt) being 1
     * @return {@code min(maxDelay, delay * multiplier^(retry - 1))}; it saturates at
     * {@code maxDelay} for retry numbers however large
     * @throws IllegalArgumentException if {@code retry} is less than 1
     */
    public Duration baseDelay(int retry) {
        checkRetry(retry);
        return Duration.ofNanos(baseDelayNanos(retry));
    }

    /**
     * Draws the wait before a retry. Allocation-free.
     * <ul>
     * <li>{@link Jitter#NONE}: {@link #baseDelay} exactly;</li>
     * <li>{@link Jitter#FULL}: uniform in {@code [0, baseDelay(retry)]};</li>
     * <li>{@link Jitter#EQUAL}: uniform in
     * {@code [baseDelay(retry) / 2, baseDelay(retry)]};</li>
     * <li>{@link Jitter#DECORRELATED}: uniform in {@code [delay, 3 * previous]}, capped
     * at {@code maxDelay}, where {@code previous} is {@code previousDelayNanos}, or
     * {@code delay} when {@code previousDelayNanos <= 0}. The result never falls below
     * {@code delay}.</li>
     * </ul>
     * @param retry the retry's number, the first retry (second attempt) being 1
     * @param previousDelayNanos the wait drawn before the previous retry, 0 or less for
     * the first retry; only {@link Jitter#DECORRELATED} uses it
     * @param random the source of randomness
     * @return the wait in nanoseconds, between 0 and {@code maxDelay}
     * @throws IllegalArgumentException if {@code retry} is less than 1
     */
    public long nextDelayNanos(int retry, long previousDelayNanos, RandomGenerator random) {
        checkRetry(retry);
        return switch (this.jitter) {
            case NONE -> baseDelayNanos(retry);
            case FULL -> uniform(0, baseDelayNanos(retry), random);
            case EQUAL -> {
                long base = baseDelayNanos(retry);
                yield uniform(base / 2, base, random);
            }
            case DECORRELATED -> {
                long previous = (previousDelayNanos > 0) ? previousDelayNanos : this.delayNanos;
                long tripled = (previous > Long.MAX_VALUE / 3) ? Long.MAX_VALUE : previous * 3;
                yield uniform(this.delayNanos, Math.min(this.maxDelayNanos, tripled), random);
            }
        };
    }

    private long baseDelayNanos(int retry) {
        if (this.delayNanos == 0 || this.multiplier == 1.0) {
            return this.delayNanos;
        }
        double scaled = this.delayNanos * Math.pow(this.multiplier, retry - 1);
        return (scaled >= this.maxDelayNanos) ? this.maxDelayNanos : (long) scaled;
    }

    private static long uniform(long lowest, long highest, RandomGenerator random) {
        if (lowest >= highest) {
            return lowest;
        }
        return (highest == Long.MAX_VALUE) ? random.nextLong(lowest, highest) : random.nextLong(lowest, highest + 1);
    }

    private static void checkRetry(int retry) {
        if (retry < 1) {
            throw new IllegalArgumentException("retry must be >= 1, was " + retry);
        }
    }

    private static long toNanos(Duration duration, String setting) {
        Objects.requireNonNull(duration, () -> setting + " must not be null");
        if (duration.isNegative()) {
            throw new IllegalArgumentException(setting + " must not be negative, was " + duration);
        }
        try {
            return duration.toNanos();
        }
        catch (ArithmeticException ex) {
            throw new IllegalArgumentException(setting + " must fit in a long of nanoseconds, was " + duration);
        }
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return (this == other) || (other instanceof Backoff that && this.delay.equals(that.delay)
                && Double.compare(this.multiplier, that.multiplier) == 0 && this.maxDelay.equals(that.maxDelay)
                && this.jitter == that.jitter);
    }

    @Override
    public int hashCode() {
        return Objects.hash(this.delay, this.multiplier, this.maxDelay, this.jitter);
    }

    @Override
    public String toString() {
        return "Backoff[delay=" + this.delay + ", multiplier=" + this.multiplier + ", maxDelay=" + this.maxDelay
                + ", jitter=" + this.jitter + "]";
    }

}
