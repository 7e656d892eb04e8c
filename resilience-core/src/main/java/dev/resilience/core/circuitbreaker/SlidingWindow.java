package dev.resilience.core.circuitbreaker;

import dev.resilience.core.time.TimeSource;

/**
 * The recent outcomes a closed breaker decides on. Implementations are thread-safe.
 */
interface SlidingWindow {

    /**
     * Records the outcome of one call.
     * @param outcome a success or failure, slow or not; never {@link Outcome#IGNORED}
     * @return {@code true} if the window's counts now reach the thresholds
     */
    boolean record(Outcome outcome);

    /**
     * Returns the window's current counts and rates.
     * @return the snapshot
     */
    WindowSnapshot snapshot();

    /**
     * Creates the window a configuration asks for.
     * @param config the breaker's configuration
     * @param timeSource the clock of a time window
     * @return an empty window
     */
    static SlidingWindow of(CircuitBreakerConfig config, TimeSource timeSource) {
        int size = config.slidingWindowSize();
        if (config.slidingWindowType() == SlidingWindowType.COUNT) {
            return new CountSlidingWindow(size, Thresholds.of(config, Math.min(config.minimumCalls(), size)));
        }
        return new TimeSlidingWindow(size, Thresholds.of(config, config.minimumCalls()), timeSource);
    }

}
