package dev.resilience.core.bulkhead;

/**
 * A limit that follows the gradient between a long-term average latency and the latest
 * one, in the manner of the Gradient2 limit of Netflix's concurrency-limits: the new
 * limit is the old one times {@code tolerance * longRtt / rtt}, kept between one half and
 * one, plus a head-room of the limit's square root, and the limit moves a fifth of the
 * way there with each call. While the latency stays at or below what the bulkhead is used
 * to, the gradient is one and the limit grows by its head-room; when the latency rises
 * above {@value #TOLERANCE} times the long-term average, the limit shrinks, down to where
 * the head-room alone keeps it. The long-term average is an exponential average over
 * about {@value #LONG_WINDOW} calls, so a lasting rise is accepted in time; when the
 * latency falls to less than half of it, it decays quickly, so the limit recovers at
 * once. A failed call counts as a sample with a gradient of at most
 * {@link BulkheadConfig#DECREASE_FACTOR} and no head-room. The limit grows only while at
 * least half of it was in use, and stays between the configured minimum and maximum. Not
 * thread-safe.
 */
final class GradientLimit implements ConcurrencyLimit {

    /**
     * How much above the long-term latency the latest one may be before the limit falls.
     */
    static final double TOLERANCE = 1.5;

    /** How many calls the long-term average latency spans, roughly. */
    static final int LONG_WINDOW = 600;

    private static final double SMOOTHING = 0.2;

    private static final double DECAY = 0.95;

    private final int minLimit;

    private final int maxLimit;

    private double estimate;

    private double longRtt;

    GradientLimit(BulkheadConfig config) {
        this.minLimit = config.minLimit();
        this.maxLimit = config.maxLimit();
        this.estimate = config.maxConcurrentCalls();
    }

    @Override
    public int limit() {
        return (int) this.estimate;
    }

    @Override
    public void onSample(long rttNanos, int inflight, boolean dropped) {
        double rtt = Math.max(1, rttNanos);
        this.longRtt = (this.longRtt == 0) ? rtt : this.longRtt + (rtt - this.longRtt) / LONG_WINDOW;
        if (this.longRtt / rtt > 2) {
            this.longRtt *= DECAY;
        }
        double gradient = Math.max(0.5, Math.min(1.0, TOLERANCE * this.longRtt / rtt));
        double headRoom = Math.sqrt(this.estimate);
        if (dropped) {
            gradient = Math.min(gradient, BulkheadConfig.DECREASE_FACTOR);
            headRoom = 0;
        }
        double target = this.estimate * gradient + headRoom;
        double next = this.estimate * (1 - SMOOTHING) + target * SMOOTHING;
        if (next > this.estimate && inflight * 2 < this.estimate) {
            return;
        }
        this.estimate = Math.max(this.minLimit, Math.min(this.maxLimit, next));
    }

}
