package dev.resilience.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The settings of hedging, used both for {@code resilience.hedging.defaults} and for each
 * of {@code resilience.hedging.instances}. A setting left {@code null} is unset: it falls
 * back to the annotation, then to the defaults, then to the built-in value of the core.
 */
public class HedgingSettings {

    /**
     * How long an attempt runs unanswered before a hedge starts; positive, at most 1h.
     */
    private @Nullable Duration delay;

    /**
     * How many hedges an attempt may start besides its first try, from 1 to 10.
     */
    private @Nullable Integer maxHedges;

    /**
     * Returns how long an attempt runs unanswered before a hedge starts.
     * @return the delay, or {@code null} if unset
     */
    public @Nullable Duration getDelay() {
        return this.delay;
    }

    /**
     * Sets how long an attempt runs unanswered before a hedge starts.
     * @param delay the delay, or {@code null} to unset
     */
    public void setDelay(@Nullable Duration delay) {
        this.delay = delay;
    }

    /**
     * Returns how many hedges an attempt may start.
     * @return the number, or {@code null} if unset
     */
    public @Nullable Integer getMaxHedges() {
        return this.maxHedges;
    }

    /**
     * Sets how many hedges an attempt may start.
     * @param maxHedges the number, or {@code null} to unset
     */
    public void setMaxHedges(@Nullable Integer maxHedges) {
        this.maxHedges = maxHedges;
    }

}
