package dev.resilience.core.time;

import java.math.BigInteger;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * Writes durations the way they are configured, in Spring's simple format and the largest
 * unit that holds them exactly: {@code 200ms}, {@code 5s}, {@code 2m}, {@code 1500us};
 * and converts them to nanoseconds without overflowing.
 */
public final class Durations {

    private static final BigInteger[] UNIT_NANOS = Stream
        .of(86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L, 1L)
        .map(BigInteger::valueOf)
        .toArray(BigInteger[]::new);

    private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000L);

    private static final String[] UNIT_SUFFIXES = { "d", "h", "m", "s", "ms", "us", "ns" };

    private Durations() {
    }

    /**
     * Converts a duration to nanoseconds, the longest ones (about 292 years and more) to
     * {@link Long#MAX_VALUE} instead of overflowing, and negative ones as long to
     * {@link Long#MIN_VALUE}.
     * @param duration a duration
     * @return its nanoseconds
     */
    public static long toNanos(Duration duration) {
        long seconds = duration.getSeconds();
        if (seconds >= Long.MAX_VALUE / 1_000_000_000L) {
            return Long.MAX_VALUE;
        }
        return (seconds <= Long.MIN_VALUE / 1_000_000_000L) ? Long.MIN_VALUE : duration.toNanos();
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
     * Formats a duration, whatever its length: one of centuries, more nanoseconds than a
     * {@code long} holds, is written as exactly as a short one.
     * @param duration the duration; a negative one is written with a minus sign
     * @return its text, {@code 0s} for zero
     */
    public static String format(Duration duration) {
        BigInteger nanos = BigInteger.valueOf(duration.getSeconds())
            .multiply(NANOS_PER_SECOND)
            .add(BigInteger.valueOf(duration.getNano()));
        if (nanos.signum() == 0) {
            return "0s";
        }
        int unit = 0;
        while (nanos.remainder(UNIT_NANOS[unit]).signum() != 0) {
            unit++;
        }
        return nanos.divide(UNIT_NANOS[unit]) + UNIT_SUFFIXES[unit];
    }

}
