package dev.resilience.core.circuitbreaker;

/**
 * How a call ended, as the breaker classifies it.
 */
enum Outcome {

    SUCCESS(false, false),

    SLOW_SUCCESS(false, true),

    FAILURE(true, false),

    SLOW_FAILURE(true, true),

    /** Ended with an ignored exception: neither a success nor a failure. */
    IGNORED(false, false);

    final boolean failed;

    final boolean slow;

    Outcome(boolean failed, boolean slow) {
        this.failed = failed;
        this.slow = slow;
    }

    static Outcome of(boolean failed, boolean slow) {
        if (failed) {
            return slow ? SLOW_FAILURE : FAILURE;
        }
        return slow ? SLOW_SUCCESS : SUCCESS;
    }

}
