package dev.resilience.actuate.endpoint;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * How the endpoints write values that JSON has no type for.
 */
final class Descriptors {

    private static final long[] UNIT_NANOS = { 86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L,
            1_000_000_000L, 1_000_000L, 1_000L, 1L };

    private static final String[] UNIT_SUFFIXES = { "d", "h", "m", "s", "ms", "us", "ns" };

    private Descriptors() {
    }

    /**
     * Writes a duration in the largest unit that holds it exactly, in Spring's simple format:
     * {@code 200ms}, {@code 5s}, {@code 2m}.
     */
    static String duration(Duration duration) {
        if (duration.isZero()) {
            return "0ms";
        }
        long nanos = duration.toNanos();
        int unit = 0;
        while (nanos % UNIT_NANOS[unit] != 0) {
            unit++;
        }
        return (nanos / UNIT_NANOS[unit]) + UNIT_SUFFIXES[unit];
    }

    static @Nullable String durationOrNull(@Nullable Duration duration) {
        return (duration != null) ? duration(duration) : null;
    }

    static List<String> classNames(List<Class<? extends Throwable>> types) {
        return types.stream().map(Class::getName).toList();
    }
}
