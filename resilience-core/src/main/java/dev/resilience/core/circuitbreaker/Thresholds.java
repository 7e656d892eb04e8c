package dev.resilience.core.circuitbreaker;

/**
 * When counts of outcomes open a breaker: with at least {@code minimumCalls} calls, a
 * failure rate or a slow-call rate that reaches its threshold.
 *
 * @param minimumCalls the calls needed before the rates count, at least 1
 * @param failureRateThreshold the failure rate in percent that opens the breaker
 * @param slowCallRateThreshold the slow-call rate in percent that opens the breaker
 */
record Thresholds(int minimumCalls, float failureRateThreshold, float slowCallRateThreshold) {

    static Thresholds of(CircuitBreakerConfig config, int minimumCalls) {
        return new Thresholds(minimumCalls, config.failureRateThreshold(), config.slowCallRateThreshold());
    }

    boolean reached(long calls, long failed, long slow) {
        return calls >= this.minimumCalls && (rate(failed, calls) >= this.failureRateThreshold
                || rate(slow, calls) >= this.slowCallRateThreshold);
    }

    WindowSnapshot snapshot(long calls, long failed, long slow) {
        boolean enough = calls >= this.minimumCalls;
        return new WindowSnapshot(saturated(calls), saturated(failed), saturated(slow),
                enough ? rate(failed, calls) : -1, enough ? rate(slow, calls) : -1);
    }

    private static float rate(long part, long calls) {
        return part * 100f / calls;
    }

    private static int saturated(long count) {
        return (int) Math.min(count, Integer.MAX_VALUE);
    }
}
