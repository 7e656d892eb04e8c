package dev.resilience.core.circuitbreaker;

/**
 * Packs the counts (calls, failed, slow) into one {@code long} of three 21-bit fields, so
 * that one atomic read gives a consistent triple and one atomic add changes all three.
 *
 * <p>
 * Fields are decoded as signed 21-bit values: a sum of packed deltas stays exact even
 * when, under races, a field is briefly negative, as long as each field stays within
 * [-2<sup>20</sup>, 2<sup>20</sup>). Callers keep counts at or below 1,000,000.
 */
final class PackedCounts {

    private static final int BITS = 21;

    private static final long[] BY_OUTCOME = new long[Outcome.values().length];

    static {
        for (Outcome outcome : Outcome.values()) {
            BY_OUTCOME[outcome.ordinal()] = (outcome == Outcome.IGNORED) ? 0
                    : 1 | ((outcome.failed ? 1L : 0) << BITS) | ((outcome.slow ? 1L : 0) << (2 * BITS));
        }
    }

    private PackedCounts() {
    }

    /**
     * Returns the packed counts of one recorded outcome.
     * @param outcome a recorded outcome; {@link Outcome#IGNORED} packs to zero
     * @return the packed counts
     */
    static long of(Outcome outcome) {
        return BY_OUTCOME[outcome.ordinal()];
    }

    static int calls(long packed) {
        return signed(packed);
    }

    static int failed(long packed) {
        return signed(upper(packed));
    }

    static int slow(long packed) {
        long upper = upper(packed);
        return (int) ((upper - signed(upper)) >> BITS);
    }

    private static long upper(long packed) {
        return (packed - signed(packed)) >> BITS;
    }

    private static int signed(long packed) {
        return (int) (packed << (Long.SIZE - BITS) >> (Long.SIZE - BITS));
    }

}
