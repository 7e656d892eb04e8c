package dev.resilience.core.bulkhead;

/**
 * The latency a {@link GradientLimit} takes as normal for its downstream, and how a
 * lasting change becomes the new normal. It learns in three ways, each from whole
 * {@link SampleWindow windows}, never from a single call:
 * <ul>
 * <li>From a window in which the limit held no call back (it was never nearly all in use,
 * {@link GradientLimit#HELD}) and no call failed: an exponential average over about
 * {@value #CALLS} calls, the first ones weighted equally. Such a window's latency is the
 * downstream's, not that of a queue the limit let in. A window in which the limit was
 * reached teaches nothing, so a sustained overload, whose latency the limit keeps above
 * normal on purpose, never drifts into the normal. The first {@value #WARM_UP_WINDOWS}
 * windows teach it whatever the limit did, so that a bulkhead full from the start learns
 * what is normal: the first window alone holds the calls that ended first, the
 * fastest.</li>
 * <li>When the latency falls to less than half the baseline, the baseline moves
 * {@value #RECOVERY} of the way down each window, so it is back within about 20 windows
 * after a slowdown ends.</li>
 * <li>When the limit cannot bring the latency down. The windows in a row above tolerance
 * are a spell of shedding: once the limit is at most half of what it was when the spell
 * began (or at its minimum), the average latency of the next {@value #SHED_WINDOWS}
 * windows is compared with the latency then. No more than a third lower, it is the
 * downstream's own and becomes the baseline at once, and the limit comes back to half of
 * where the comparison began, at least: halving the calls in a queue would have halved
 * its wait, and a latency that stays is not one the bulkhead can shed. Lower, the
 * comparison starts again from there. Averaging three windows, thirty calls or more,
 * keeps one window's luck from setting the baseline.</li>
 * </ul>
 * Not thread-safe.
 */
final class LatencyBaseline {

    /** How many calls the baseline's average spans, roughly. */
    static final int CALLS = 5000;

    /** How many windows teach the baseline whatever the limit did in them. */
    static final int WARM_UP_WINDOWS = 5;

    /** How far the baseline moves down per window once the latency is below its half. */
    static final double RECOVERY = 0.1;

    /**
     * How many windows at half the limit (or at its minimum) tell whether shedding
     * brought the latency down.
     */
    static final int SHED_WINDOWS = 3;

    private static final double KEPT_LATENCY = 2.0 / 3;

    private final int minLimit;

    private double nanos;

    private long learnedCalls;

    private int learnedWindows;

    private boolean shedding;

    private double shedFromLimit;

    private double shedFromNanos;

    private double shedNanos;

    private long shedSamples;

    private int shedWindows;

    LatencyBaseline(int minLimit) {
        this.minLimit = minLimit;
    }

    /**
     * Returns the normal latency.
     * @return the baseline in nanoseconds, zero before the first window
     */
    double nanos() {
        return this.nanos;
    }

    /**
     * Returns whether the baseline still learns from every window.
     * @return whether fewer than {@value #WARM_UP_WINDOWS} windows taught it
     */
    boolean warmingUp() {
        return this.learnedWindows < WARM_UP_WINDOWS;
    }

    /**
     * Learns from a window in which no call failed and the limit held none back, or from
     * any while {@link #warmingUp() warming up}.
     * @param rttNanos the window's average latency
     * @param samples the window's calls
     */
    void learn(double rttNanos, int samples) {
        this.learnedCalls += samples;
        this.learnedWindows++;
        if (this.nanos == 0) {
            this.nanos = rttNanos;
            return;
        }
        double weight = (double) samples / Math.min(CALLS, this.learnedCalls);
        if (rttNanos < this.nanos / 2) {
            weight = Math.max(weight, RECOVERY);
        }
        this.nanos += (rttNanos - this.nanos) * weight;
    }

    /**
     * Hears of a window without failures whose latency was within tolerance: the limit no
     * longer sheds.
     */
    void withinTolerance() {
        this.shedding = false;
    }

    /**
     * Hears of a window without failures whose latency was above tolerance, and takes the
     * latency as the baseline if the limit shed enough to show it is the downstream's
     * own.
     * @param rttNanos the window's average latency
     * @param samples the window's calls
     * @param limit the limit the window's calls ran under
     * @return whether the baseline is now the latency of the windows since the limit
     * halved
     */
    boolean takesAsOwn(double rttNanos, int samples, double limit) {
        if (!this.shedding) {
            this.shedding = true;
            shedFrom(rttNanos, limit);
            return false;
        }
        if (limit > Math.max(this.minLimit, this.shedFromLimit / 2)) {
            return false;
        }
        this.shedNanos += rttNanos * samples;
        this.shedSamples += samples;
        if (++this.shedWindows < SHED_WINDOWS) {
            return false;
        }
        double shed = this.shedNanos / this.shedSamples;
        if (shed >= this.shedFromNanos * KEPT_LATENCY) {
            this.nanos = shed;
            this.shedding = false;
            return true;
        }
        shedFrom(shed, limit);
        return false;
    }

    /**
     * Returns the limit from which the last comparison of a spell of shedding began; if
     * {@link #takesAsOwn} just said so, the latency under its half was the downstream's
     * own.
     * @return the limit
     */
    double shedFromLimit() {
        return this.shedFromLimit;
    }

    private void shedFrom(double rttNanos, double limit) {
        this.shedFromNanos = rttNanos;
        this.shedFromLimit = limit;
        this.shedNanos = 0;
        this.shedSamples = 0;
        this.shedWindows = 0;
    }

}
