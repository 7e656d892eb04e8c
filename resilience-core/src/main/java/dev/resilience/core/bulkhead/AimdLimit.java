package dev.resilience.core.bulkhead;

import dev.resilience.core.time.Durations;

/**
 * Additive increase, multiplicative decrease, decided once per {@link SampleWindow}: once
 * per generation of calls (as many as the limit, at least ten), as TCP backs off at most
 * once per round trip. A window whose average latency reached the latency threshold, or
 * in which any call failed, multiplies the limit by
 * {@link BulkheadConfig#DECREASE_FACTOR} (and takes at least one off); a window of calls
 * that all succeeded, below the threshold on average, in which at least half the limit
 * was in use at some moment, adds one. So a slowdown costs one cut per generation of
 * calls, not one per slow call: the calls admitted under the higher limit all come back
 * slow, and together they cut it once. The limit stays between the configured minimum and
 * maximum. Not thread-safe.
 */
final class AimdLimit implements ConcurrencyLimit {

    private final int minLimit;

    private final int maxLimit;

    private final long thresholdNanos;

    private final SampleWindow window;

    private int limit;

    AimdLimit(BulkheadConfig config) {
        this.minLimit = config.minLimit();
        this.maxLimit = config.maxLimit();
        this.thresholdNanos = Durations.toNanos(config.latencyThreshold());
        this.limit = config.maxConcurrentCalls();
        this.window = new SampleWindow(this.limit);
    }

    @Override
    public int limit() {
        return this.limit;
    }

    @Override
    public void onSample(long rttNanos, int inflight, boolean dropped) {
        if (!this.window.add(rttNanos, inflight, dropped)) {
            return;
        }
        if (this.window.dropped() || this.window.averageRttNanos() >= this.thresholdNanos) {
            int decreased = Math.min(this.limit - 1, (int) (this.limit * BulkheadConfig.DECREASE_FACTOR));
            this.limit = Math.max(this.minLimit, decreased);
        }
        else if (this.window.maxInflight() * 2 >= this.limit) {
            this.limit = Math.min(this.maxLimit, this.limit + 1);
        }
        this.window.restart(this.limit);
    }

}
