package dev.resilience.core;

/**
 * What the retry stage decided after an attempt: run another attempt after a delay, or
 * stop retrying, the call's status and error being set.
 */
sealed interface RetryDecision permits RetryDecision.Retry, RetryDecision.Stop {

    /** The retry stage is over; the call's outcome is set. */
    Stop STOP = new Stop();

    /**
     * Another attempt follows.
     *
     * @param delayNanos the wait before it, 0 for at once
     */
    record Retry(long delayNanos) implements RetryDecision {
    }

    /** The retry stage is over. */
    final class Stop implements RetryDecision {

        private Stop() {
        }

    }

}
