package dev.resilience.core;

import java.time.Duration;

import dev.resilience.core.time.Durations;

/**
 * Thrown in place of an attempt's outcome when the attempt overran its timeout. A
 * synchronous attempt is interrupted; an asynchronous one is cancelled.
 */
public class AttemptTimeoutException extends RuntimeException {

    private final Duration timeout;

    /**
     * Creates the exception.
     * @param name the instance whose attempt timed out
     * @param timeout the timeout that was exceeded
     */
    public AttemptTimeoutException(String name, Duration timeout) {
        super("Attempt of '" + name + "' did not complete within " + Durations.format(timeout));
        this.timeout = timeout;
    }

    /**
     * Returns the timeout that was exceeded.
     * @return the attempt timeout
     */
    public Duration timeout() {
        return this.timeout;
    }

}
