package dev.resilience.core.deadletter;

import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Makes dead letter ids: UUIDs in the version 7 layout, a 48-bit millisecond timestamp
 * followed by 74 random bits, so that ids sort by time to the millisecond, as strings
 * too.
 */
public final class DeadLetterIds {

    private static final long MAX_MILLIS = 0xFFFF_FFFF_FFFFL;

    private static final Instant LATEST = Instant.ofEpochMilli(MAX_MILLIS);

    private DeadLetterIds() {
    }

    /**
     * Returns a new id for a dead letter written at the given time.
     * @param timestamp when the dead letter is written, from the engine's time source;
     * instants before 1970 or after the year 10889 are clamped
     * @return a unique id such as {@code 019b7a1e-6c00-7d3f-9a41-5e0c2b7f18a4}
     */
    public static String next(Instant timestamp) {
        long millis = timestamp.isBefore(Instant.EPOCH) ? 0
                : timestamp.isAfter(LATEST) ? MAX_MILLIS : timestamp.toEpochMilli();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long mostSignificant = (millis << 16) | 0x7000L | (random.nextLong() & 0x0FFFL);
        long leastSignificant = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | Long.MIN_VALUE;
        return new UUID(mostSignificant, leastSignificant).toString();
    }

}
