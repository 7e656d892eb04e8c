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
 */
public record Faults(double failureRate, long latencyMs, boolean outage, long processingMs) {

    /** A downstream that answers every call at once and correctly. */
    public static final Faults NONE = new Faults(0, 0, false, 0);

    /**
     * Checks the ranges.
     */
    public Faults {
        if (failureRate < 0 || failureRate > 1) {
            throw new IllegalArgumentException("failureRate must be between 0 and 1, not " + failureRate);
        }
        if (latencyMs < 0 || latencyMs > 60_000) {
            throw new IllegalArgumentException("latencyMs must be between 0 and 60000, not " + latencyMs);
        }
        if (processingMs < 0 || processingMs > 60_000) {
            throw new IllegalArgumentException("processingMs must be between 0 and 60000, not " + processingMs);
        }
    }
}
