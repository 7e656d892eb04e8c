package dev.resilience.core.time;

import java.time.Duration;

/**
 * Writes durations the way they are configured, in Spring's simple format and the largest
 * unit that holds them exactly: {@code 200ms}, {@code 5s}, {@code 2m}, {@code 1500us};
 * and converts them to nanoseconds without overflowing.
 */
public final class Durations {

    private static final long[] UNIT_NANOS = { 86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L,
            1_000_000L, 1_000L, 1L };

    private static final String[] UNIT_SUFFIXES = { "d", "h", "m", "s", "ms", "us", "ns" };

    private Durations() {
    }

    /**
     * Converts a duration to nanoseconds, the longest ones (about 292 years and more) to
     * {@link Long#MAX_VALUE} instead of overflowing.
     * @param duration a duration, zero or positive
     * @return its nanoseconds
     */
    public static long toNanos(Duration duration) {
        return (duration.getSeconds() >= Long.MAX_VALUE / 1_000_000_000L) ? Long.MAX_VALUE : duration.toNanos();
    }

    /**
     * Adds nanoseconds to a time reading, {@link Long#MAX_VALUE} when the sum overflows:
     * for a clock whose readings never wrap, such as a {@link VirtualTimeSource}'s. A
     * deadline on {@link TimeSource#nanoTime()}, whose readings may wrap, is the plain
     * sum instead, compared with later readings by their difference alone.
     * @param nowNanos a time reading
     * @param nanos zero or more nanoseconds
     * @return the later reading
     */
    public static long later(long nowNanos, long nanos) {
        long sum = nowNanos + nanos;
        return (nanos > 0 && sum < nowNanos) ? Long.MAX_VALUE : sum;
    }

    /**
     * Formats a duration.
     * @param duration the duration, zero or positive
     * @return its text, {@code 0s} for zero
     */
    public static String format(Duration duration) {
        long nanos = duration.toNanos();
        if (nanos == 0) {
            return "0s";
        }
        int unit = 0;
        while (nanos % UNIT_NANOS[unit] != 0) {
            unit++;
        }
        return (nanos / UNIT_NANOS[unit]) + UNIT_SUFFIXES[unit];
    }

}
