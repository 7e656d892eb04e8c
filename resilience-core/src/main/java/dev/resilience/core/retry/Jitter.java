package dev.resilience.core.retry;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a {@link Backoff} spreads its delays so that clients failing together do not retry
 * together.
 */
public enum Jitter {

    /** The exponential delay exactly, no randomness. */
    NONE,

    /** Uniform in {@code [0, delay(n)]}. */
    FULL,

    /** Uniform in {@code [delay(n) / 2, delay(n)]}. */
    EQUAL,

    /** Uniform in {@code [delay, 3 * previous]}, capped at the maximum delay. */
    DECORRELATED;

    /**
     * Returns the jitter mode named by a configuration value.
     * @param value {@code none}, {@code full}, {@code equal} or {@code decorrelated}, in
     * any case
     * @return the jitter mode
     * @throws IllegalArgumentException if the value names no mode; the message lists the
     * valid values
     */
    public static Jitter parse(String value) {
        for (Jitter jitter : values()) {
            if (jitter.name().equalsIgnoreCase(value.trim())) {
                return jitter;
            }
        }
        String valid = Arrays.stream(values())
            .map((jitter) -> jitter.name().toLowerCase(Locale.ROOT))
            .collect(Collectors.joining(", "));
        throw new IllegalArgumentException("Invalid jitter '" + value + "': valid values are " + valid);
    }

}
