package dev.resilience.core.bulkhead;

import dev.resilience.core.time.Durations;

/**
 * Additive increase, multiplicative decrease: a call that succeeded below the latency
 * threshold while at least half the limit was in use adds one to the limit; a call that
 * failed, or took the threshold or longer, multiplies it by
 * {@link BulkheadConfig#DECREASE_FACTOR} (and takes at least one off). The limit stays
 * between the configured minimum and maximum. Not thread-safe.
 */
final class AimdLimit implements ConcurrencyLimit {

    private final int minLimit;

    private final int maxLimit;

    private final long thresholdNanos;

    private int limit;

    AimdLimit(BulkheadConfig config) {
        this.minLimit = config.minLimit();
        this.maxLimit = config.maxLimit();
        this.thresholdNanos = Durations.toNanos(config.latencyThreshold());
        this.limit = config.maxConcurrentCalls();
    }

    @Override
    public int limit() {
        return this.limit;
    }

    @Override
    public void onSample(long rttNanos, int inflight, boolean dropped) {
        if (dropped || rttNanos >= this.thresholdNanos) {
            int decreased = Math.min(this.limit - 1, (int) (this.limit * BulkheadConfig.DECREASE_FACTOR));
            this.limit = Math.max(this.minLimit, decreased);
        }
        else if (inflight * 2 >= this.limit) {
            this.limit = Math.min(this.maxLimit, this.limit + 1);
        }
    }

}
