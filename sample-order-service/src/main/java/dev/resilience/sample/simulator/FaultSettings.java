package dev.resilience.sample.simulator;

import org.jspecify.annotations.Nullable;

/**
 * The body of {@code POST /simulator/faults}: the new behaviour of one downstream. Fields
 * left out mean no failures, no latency, no outage.
 *
 * @param target {@code primary}, {@code backup} or {@code oracle}
 * @param failureRate the share of calls that fail, from 0 to 1
 * @param latencyMs the sleep before every answer, in milliseconds
 * @param outage whether every call fails
 * @param processingMs how long a gateway processes a new charge before recording it, in
 * milliseconds
 */
public record FaultSettings(@Nullable String target, @Nullable Double failureRate, @Nullable Long latencyMs,
        @Nullable Boolean outage, @Nullable Long processingMs) {

    /**
     * Returns the faults these settings describe.
     * @return the faults
     */
    public Faults faults() {
        return new Faults((this.failureRate != null) ? this.failureRate : 0,
                (this.latencyMs != null) ? this.latencyMs : 0, Boolean.TRUE.equals(this.outage),
                (this.processingMs != null) ? this.processingMs : 0);
    }
}
