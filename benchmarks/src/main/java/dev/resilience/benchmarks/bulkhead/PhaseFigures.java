package dev.resilience.benchmarks.bulkhead;

import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The figures of one strategy in one phase of a scenario.
 *
 * @param p50 the median latency of the admitted calls that ended in the phase, in
 * nanoseconds; empty when none ended
 * @param p99 their 99th percentile
 * @param max their longest latency
 * @param refusedShare the share of the calls arriving in the phase that the bulkhead
 * refused, between 0 and 1
 * @param throughput the admitted calls that ended in the phase, per second
 * @param lowestLimit the lowest of the bulkhead's limits at the end of each second of the
 * phase; empty without a bulkhead
 * @param highestLimit the highest of them
 */
record PhaseFigures(OptionalLong p50, OptionalLong p99, OptionalLong max, double refusedShare, double throughput,
        OptionalInt lowestLimit, OptionalInt highestLimit) {

}
