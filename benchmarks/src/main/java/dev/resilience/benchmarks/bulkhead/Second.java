package dev.resilience.benchmarks.bulkhead;

import java.util.OptionalLong;

/**
 * What happened in one second of a simulation.
 *
 * @param arrivals the calls that arrived in this second
 * @param refused the calls that arrived in this second and that the bulkhead refused
 * @param latencies the latencies, in nanoseconds and in ascending order, of the admitted
 * calls that ended in this second, each from its arrival to its end
 * @param limit the bulkhead's limit at the end of the second, {@code -1} without a
 * bulkhead
 * @param downstreamRequests the requests the downstream held at the end of the second,
 * served and waiting
 */
record Second(long arrivals, long refused, long[] latencies, int limit, int downstreamRequests) {

    /**
     * Returns how many admitted calls ended in this second.
     * @return the number of latencies
     */
    long completed() {
        return this.latencies.length;
    }

    /**
     * Returns a quantile of the latencies of this second.
     * @param quantile between 0 exclusive and 1 inclusive
     * @return the latency at that rank in nanoseconds, empty when no call ended
     */
    OptionalLong latency(double quantile) {
        return Quantiles.of(this.latencies, quantile);
    }

}
