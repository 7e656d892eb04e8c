package dev.resilience.sample.simulator;

/**
 * How a simulated downstream misbehaves.
 *
 * @param failureRate the share of calls answered with a 503, without effect, from 0 to 1
 * @param latencyMs how long every call sleeps before answering, in milliseconds
 * @param outage whether every call fails with a 503
 */
public record Faults(double failureRate, long latencyMs, boolean outage) {

    /** A downstream that answers every call at once and correctly. */
    public static final Faults NONE = new Faults(0, 0, false);

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
    }
}
