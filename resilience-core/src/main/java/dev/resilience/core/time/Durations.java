package dev.resilience.core.time;

import java.time.Duration;

/**
 * Writes durations the way they are configured, in Spring's simple format and the largest
 * unit that holds them exactly: {@code 200ms}, {@code 5s}, {@code 2m}, {@code 1500us}.
 */
public final class Durations {

    private static final long[] UNIT_NANOS = { 86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L,
            1_000_000_000L, 1_000_000L, 1_000L, 1L };

    private static final String[] UNIT_SUFFIXES = { "d", "h", "m", "s", "ms", "us", "ns" };

    private Durations() {
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
