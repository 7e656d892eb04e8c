package dev.resilience.core.bulkhead;

/**
 * A limit that follows the ratio of the normal latency to the latest one, in the manner
 * of the Gradient2 limit of Netflix's concurrency-limits, decided once per
 * {@link SampleWindow}: once per generation of calls (as many as the limit, at least
 * ten), from their average latency, so that the noise of single calls does not move it.
 *
 * <p>
 * While a window's average latency stays within {@value #TOLERANCE} times the
 * {@link LatencyBaseline baseline}, the limit grows by {@value #GROWTH} times its square
 * root per window, if at least half of it was in use at some moment of the window. Above
 * that, the gradient {@code TOLERANCE * baseline / latency}, kept between one half and
 * one, cuts it by {@value #CUT} of the way to {@code limit * gradient}: by a quarter per
 * window at most, when the latency is three times the normal or more. A window in which a
 * call failed multiplies the limit by {@link BulkheadConfig#DECREASE_FACTOR} or less, as
 * AIMD's does. The limit stays between the configured minimum and maximum.
 *
 * <p>
 * How fast a lasting change becomes the new normal is the baseline's choice, made so that
 * the bulkhead neither accepts the queue it is there to prevent nor keeps under-using a
 * downstream that really became slower:
 * <ul>
 * <li>A latency the bulkhead cannot shed is the new normal within a few windows: when the
 * limit has halved and the latency has not come down, the bulkhead is not what makes it
 * high. In the adaptive-bulkhead simulator, a downstream of 16 workers slowed down
 * tenfold and loaded five times beyond what it can then serve, the limit falls from 30 to
 * 7 or 8 in the first two seconds, then takes the slow latency as normal and is back at
 * the 16 workers by the end of the third (seeds 42, 1 and 7).</li>
 * <li>A latency the bulkhead let build, because it was full, is never learned: only
 * windows in which the limit held no call back teach the baseline. Over twelve minutes of
 * that overload the limit stays between 16 and 30; learning from every window instead let
 * it climb to the maximum of 200 in that time.</li>
 * <li>Gentler changes, within tolerance, are averaged over about
 * {@value LatencyBaseline#CALLS} calls: 25 seconds at 200 calls a second. A fall of the
 * latency below half the baseline, as at the end of a slowdown, is followed within about
 * 20 windows.</li>
 * </ul>
 * The price of waiting for that evidence: a downstream that slows down while it still has
 * workers to spare sees calls refused for the few seconds the limit takes to halve (in
 * the simulator, 2.8% of the slowdown's calls at 30 calls a second, where the slow
 * downstream serves 40).
 *
 * <p>
 * Not thread-safe.
 */
final class GradientLimit implements ConcurrencyLimit {

    /** How much above the baseline a window's latency may be before the limit falls. */
    static final double TOLERANCE = 1.5;

    /**
     * How many times its square root the limit grows per window while within tolerance.
     */
    static final double GROWTH = 0.2;

    /** How far, per window, the limit moves towards {@code limit * gradient}. */
    static final double CUT = 0.5;

    /**
     * The share of the limit in use at some moment of a window from which the limit
     * counts as having held calls back: a window's calls were admitted under the limits
     * of the windows before it, which may have been lower.
     */
    static final double HELD = 0.75;

    private final int minLimit;

    private final int maxLimit;

    private final SampleWindow window;

    private final LatencyBaseline baseline;

    private double estimate;

    GradientLimit(BulkheadConfig config) {
        this.minLimit = config.minLimit();
        this.maxLimit = config.maxLimit();
        this.estimate = config.maxConcurrentCalls();
        this.window = new SampleWindow(limit());
        this.baseline = new LatencyBaseline(this.minLimit);
    }

    @Override
    public int limit() {
        return (int) this.estimate;
    }

    @Override
    public void onSample(long rttNanos, int inflight, boolean dropped) {
        if (this.window.add(rttNanos, inflight, dropped)) {
            learn(this.window);
            this.window.restart(limit());
        }
    }

    private void learn(SampleWindow calls) {
        double rtt = calls.averageRttNanos();
        boolean held = calls.maxInflight() >= HELD * this.estimate;
        if (this.baseline.warmingUp() || (!held && !calls.dropped())) {
            this.baseline.learn(rtt, calls.samples());
        }
        boolean slow = rtt > TOLERANCE * this.baseline.nanos();
        if (!calls.dropped()) {
            if (!slow) {
                this.baseline.withinTolerance();
            }
            else if (this.baseline.takesAsOwn(rtt, calls.samples(), this.estimate)) {
                this.estimate = Math.max(this.estimate, this.baseline.shedFromLimit() / 2);
                return;
            }
        }
        if (slow || calls.dropped()) {
            double gradient = Math.max(0.5, Math.min(1.0, TOLERANCE * this.baseline.nanos() / rtt));
            double factor = 1 - CUT * (1 - gradient);
            if (calls.dropped()) {
                factor = Math.min(factor, BulkheadConfig.DECREASE_FACTOR);
            }
            this.estimate = Math.max(this.minLimit, this.estimate * factor);
        }
        else if (calls.maxInflight() * 2 >= this.estimate) {
            this.estimate = Math.min(this.maxLimit, this.estimate + GROWTH * Math.sqrt(this.estimate));
        }
    }

}
