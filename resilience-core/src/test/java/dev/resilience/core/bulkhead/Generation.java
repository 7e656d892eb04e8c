package dev.resilience.core.bulkhead;

import java.time.Duration;
import java.util.ArrayDeque;

/**
 * A generation of calls that run at once: their permits taken together, so that the last
 * is admitted with all of them in flight, then handed back one by one, with an outcome or
 * without one.
 */
final class Generation {

    private final Bulkhead bulkhead;

    private final ArrayDeque<Bulkhead.Permit> permits = new ArrayDeque<>();

    private Generation(Bulkhead bulkhead) {
        this.bulkhead = bulkhead;
    }

    /**
     * Takes permits for calls that start together.
     * @param bulkhead the bulkhead, with that many permits free
     * @param calls how many
     * @return the running generation
     * @throws InterruptedException never: a full bulkhead refuses
     */
    static Generation of(Bulkhead bulkhead, int calls) throws InterruptedException {
        Generation generation = new Generation(bulkhead);
        for (int i = 0; i < calls; i++) {
            generation.permits.add(bulkhead.acquire());
        }
        return generation;
    }

    /**
     * Ends calls that succeeded.
     * @param calls how many of those still running
     * @param latency how long each took
     */
    void succeed(int calls, Duration latency) {
        for (int i = 0; i < calls; i++) {
            this.bulkhead.onSuccess(this.permits.remove(), latency.toNanos());
        }
    }

    /**
     * Ends every call still running with a success.
     * @param latency how long each took
     */
    void succeed(Duration latency) {
        succeed(this.permits.size(), latency);
    }

    /**
     * Ends calls that failed.
     * @param calls how many of those still running
     * @param latency how long each took
     */
    void fail(int calls, Duration latency) {
        for (int i = 0; i < calls; i++) {
            this.bulkhead.onError(this.permits.remove(), latency.toNanos(), new IllegalStateException("failed"));
        }
    }

    /** Ends every call still running without an outcome, as cancelled calls end. */
    void cancel() {
        while (!this.permits.isEmpty()) {
            this.bulkhead.release(this.permits.remove());
        }
    }

}
