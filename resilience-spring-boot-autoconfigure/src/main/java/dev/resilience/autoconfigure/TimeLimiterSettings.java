package dev.resilience.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The settings of time limiters, used both for {@code resilience.time-limiter.defaults}
 * and for each of {@code resilience.time-limiter.instances}. A setting left {@code null}
 * is unset: it falls back to the annotation, then to the defaults, then to the built-in
 * value.
 */
public class TimeLimiterSettings {

    /**
     * How long a run of the method may take before it is interrupted (sync) or its stage
     * cancelled (async); must be positive.
     */
    private @Nullable Duration timeout;

    /**
     * Returns how long a run may take.
     * @return the time limit, or {@code null} if unset
     */
    public @Nullable Duration getTimeout() {
        return this.timeout;
    }

    /**
     * Sets how long a run may take.
     * @param timeout the time limit, or {@code null} to unset
     */
    public void setTimeout(@Nullable Duration timeout) {
        this.timeout = timeout;
    }

}
