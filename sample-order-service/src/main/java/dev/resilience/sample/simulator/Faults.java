package dev.resilience.sample.simulator;

/**
 * How a simulated downstream misbehaves.
 *
 * @param failureRate the share of calls answered with a 503, without effect, from 0 to 1
 * @param latencyMs how long every call sleeps before answering, in milliseconds
 * @param outage whether every call fails with a 503
 * @param processingMs how long a gateway processes a new charge before it is recorded, in
 * milliseconds; meanwhile the gateway answers a charge request with the same key 409 and
 * a lookup of the key 404 with {@code "processing": true}
 * @param pendingRate the share of a gateway's new charges that it records as
 * {@code pending} and answers 200 with that status, from 0 to 1
 * @param settleMs how long such a charge stays pending, in milliseconds, counted from its
 * recording; until then a request or lookup with its key answers it {@code pending}, from
 * then on {@code succeeded}
 */
public record Faults(double failureRate, long latencyMs, boolean outage, long processingMs, double pendingRate,
        long settleMs) {

    /** A downstream that answers every call at once and correctly. */
    public static final Faults NONE = new Faults(0, 0, false, 0, 0, 0);

    /**
     * Checks the ranges.
     */
    public Faults {
        requireShare("failureRate", failureRate);
        requireMillis("latencyMs", latencyMs);
        requireMillis("processingMs", processingMs);
        requireShare("pendingRate", pendingRate);
        requireMillis("settleMs", settleMs);
    }

    private static void requireShare(String name, double share) {
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException(name + " must be between 0 and 1, not " + share);
        }
    }

    private static void requireMillis(String name, long millis) {
        if (millis < 0 || millis > 60_000) {
            throw new IllegalArgumentException(name + " must be between 0 and 60000, not " + millis);
        }
    }

}
