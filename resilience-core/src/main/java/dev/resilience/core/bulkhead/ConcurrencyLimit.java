package dev.resilience.core.bulkhead;

/**
 * The limit of a {@link Bulkhead}, and how it learns from the calls that gave their
 * permits back with an outcome; the adaptive ones gather them in a {@link SampleWindow}
 * and decide once per window. Not thread-safe: the bulkhead reads and moves it under its
 * lock.
 */
interface ConcurrencyLimit {

    /**
     * Returns the number of calls that may run at once.
     * @return the current limit
     */
    int limit();

    /**
     * Learns from one call.
     * @param rttNanos how long the call took
     * @param inflight how many calls ran, this one included, when it was admitted
     * @param dropped whether the call failed
     */
    void onSample(long rttNanos, int inflight, boolean dropped);

    /**
     * Creates the limit a configuration describes.
     * @param config the bulkhead's settings
     * @return a fixed limit, or an adaptive one of the configured algorithm
     */
    static ConcurrencyLimit of(BulkheadConfig config) {
        if (config.type() == BulkheadType.FIXED) {
            return new FixedLimit(config.maxConcurrentCalls());
        }
        return switch (config.algorithm()) {
            case AIMD -> new AimdLimit(config);
            case GRADIENT -> new GradientLimit(config);
        };
    }

    /** A limit that never moves. */
    record FixedLimit(int limit) implements ConcurrencyLimit {

        @Override
        public void onSample(long rttNanos, int inflight, boolean dropped) {
        }

    }

}
