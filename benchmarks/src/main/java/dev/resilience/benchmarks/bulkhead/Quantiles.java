package dev.resilience.benchmarks.bulkhead;

import java.util.OptionalLong;

/**
 * Quantiles of sorted latencies by the nearest rank: the quantile {@code q} of {@code n}
 * values is the one at rank {@code ceil(q * n)}, so the 0.5 quantile of 1 to 4 is 2 and
 * its 1.0 quantile the largest value.
 */
final class Quantiles {

    private Quantiles() {
    }

    /**
     * Returns a quantile of sorted values.
     * @param sorted values in ascending order
     * @param quantile between 0 exclusive and 1 inclusive
     * @return the value at that rank, empty when there are none
     */
    static OptionalLong of(long[] sorted, double quantile) {
        if (!(quantile > 0 && quantile <= 1)) {
            throw new IllegalArgumentException("A quantile lies in (0, 1], was " + quantile);
        }
        if (sorted.length == 0) {
            return OptionalLong.empty();
        }
        int rank = (int) Math.ceil(quantile * sorted.length);
        return OptionalLong.of(sorted[rank - 1]);
    }

}
