package dev.resilience.core;

import java.time.Duration;

/**
 * Writes durations the way they are configured ({@code 250ms}, {@code 2s}) in messages.
 */
final class Durations {

    private Durations() {
    }

    static String format(Duration duration) {
        long nanos = duration.toNanos();
        if (nanos % 1_000_000 != 0) {
            return nanos + "ns";
        }
        long millis = nanos / 1_000_000;
        return (millis % 1000 == 0) ? (millis / 1000) + "s" : millis + "ms";
    }
}
