package dev.resilience.sample.simulator;

import org.jspecify.annotations.Nullable;

/**
 * The body of {@code POST /simulator/faults}: the new behaviour of one downstream. Fields
 * left out mean no failures, no latency, no outage, no pending charges.
 *
 * @param target {@code primary}, {@code backup} or {@code oracle}
 * @param failureRate the share of calls that fail, from 0 to 1
 * @param latencyMs the sleep before every answer, in milliseconds
 * @param outage whether every call fails
 * @param processingMs how long a gateway processes a new charge before recording it, in
 * milliseconds
 * @param pendingRate the share of a gateway's new charges answered 200 with the status
 * {@code pending}, from 0 to 1
 * @param settleMs how long such a charge stays pending, in milliseconds
 */
public record FaultSettings(@Nullable String target, @Nullable Double failureRate, @Nullable Long latencyMs,
        @Nullable Boolean outage, @Nullable Long processingMs, @Nullable Double pendingRate, @Nullable Long settleMs) {

    /**
     * Returns the faults these settings describe.
     * @return the faults
     */
    public Faults faults() {
        return new Faults(orZero(this.failureRate), orZero(this.latencyMs), Boolean.TRUE.equals(this.outage),
                orZero(this.processingMs), orZero(this.pendingRate), orZero(this.settleMs));
    }

    private static double orZero(@Nullable Double value) {
        return (value != null) ? value : 0;
    }

    private static long orZero(@Nullable Long value) {
        return (value != null) ? value : 0;
    }

}
