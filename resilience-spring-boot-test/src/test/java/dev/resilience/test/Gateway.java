package dev.resilience.test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;

/**
 * A protected bean of the test application; it counts what runs, across tests, so that a
 * test asserts on the increase.
 */
public class Gateway {

    private final AtomicInteger failuresLeft = new AtomicInteger();

    private final AtomicInteger attempts = new AtomicInteger();

    private final AtomicInteger bookings = new AtomicInteger();

    /**
     * Charges, or fails.
     * @param fail whether the call fails
     * @return the receipt
     */
    @CircuitGuarded("gateway")
    public String charge(boolean fail) {
        if (fail) {
            throw new IllegalStateException("gateway down");
        }
        return "charged";
    }

    /**
     * Probes, or fails, behind a breaker that leaves OPEN by a timer.
     * @param fail whether the call fails
     * @return the answer
     */
    @CircuitGuarded("timed")
    public String probe(boolean fail) {
        if (fail) {
            throw new IllegalStateException("probe failed");
        }
        return "probed";
    }

    /**
     * Fails as many times as {@link #failNext(int)} said, then answers; retried with
     * minutes of backoff.
     * @return the answer
     */
    @Retryable("patient")
    public String patiently() {
        return attempt();
    }

    /**
     * As {@link #patiently()}, asynchronously.
     * @return the answer
     */
    @Retryable("patient")
    public CompletableFuture<String> patientlyAsync() {
        try {
            return CompletableFuture.completedFuture(attempt());
        }
        catch (IllegalStateException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    /**
     * Always fails, retried within a retry budget.
     * @return never
     */
    @Retryable("budgeted")
    public String budgeted() {
        this.attempts.incrementAndGet();
        throw new IllegalStateException("still down");
    }

    /**
     * Books once per idempotency key.
     * @param key the idempotency key
     * @return the booking
     */
    @Idempotent(key = "#key")
    public String book(String key) {
        return "booking-" + key + "-" + this.bookings.incrementAndGet();
    }

    void failNext(int failures) {
        this.failuresLeft.set(failures);
    }

    int attempts() {
        return this.attempts.get();
    }

    int bookings() {
        return this.bookings.get();
    }

    private String attempt() {
        this.attempts.incrementAndGet();
        if (this.failuresLeft.getAndDecrement() > 0) {
            throw new IllegalStateException("not yet");
        }
        return "done";
    }

}
