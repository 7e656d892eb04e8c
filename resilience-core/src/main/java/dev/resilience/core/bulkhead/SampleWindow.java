package dev.resilience.core.bulkhead;

/**
 * The calls an adaptive limit learns from at once: about one generation of them, as many
 * as the limit allowed when the window opened and at least {@value #MIN_SAMPLES}. It
 * keeps their average latency, the most calls that ran at once when one of them was
 * admitted, and whether any failed, so that the limit decides once per window from what
 * the calls had in common rather than from each call's noise. O(1) in time and memory per
 * call. Not thread-safe.
 */
final class SampleWindow {

    /** The fewest calls a window holds, whatever the limit. */
    static final int MIN_SAMPLES = 10;

    private int size;

    private int samples;

    private double totalRttNanos;

    private int maxInflight;

    private boolean dropped;

    SampleWindow(int limit) {
        restart(limit);
    }

    /**
     * Adds one call.
     * @param rttNanos how long it took
     * @param inflight how many calls ran, this one included, when it was admitted
     * @param dropped whether it failed
     * @return whether the window is complete: it is then read and restarted
     */
    boolean add(long rttNanos, int inflight, boolean dropped) {
        this.samples++;
        this.totalRttNanos += rttNanos;
        this.maxInflight = Math.max(this.maxInflight, inflight);
        this.dropped |= dropped;
        return this.samples >= this.size;
    }

    /**
     * Empties the window and sizes it for the next generation of calls.
     * @param limit the limit now
     */
    void restart(int limit) {
        this.size = Math.max(MIN_SAMPLES, limit);
        this.samples = 0;
        this.totalRttNanos = 0;
        this.maxInflight = 0;
        this.dropped = false;
    }

    int samples() {
        return this.samples;
    }

    /**
     * Returns the average latency of the window's calls, at least one nanosecond.
     * @return the average, in nanoseconds
     */
    double averageRttNanos() {
        return Math.max(1, this.totalRttNanos / Math.max(1, this.samples));
    }

    int maxInflight() {
        return this.maxInflight;
    }

    boolean dropped() {
        return this.dropped;
    }

}
