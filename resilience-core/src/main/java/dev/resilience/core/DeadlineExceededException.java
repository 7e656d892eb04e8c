package dev.resilience.core;

import java.time.Duration;

import dev.resilience.core.time.Durations;

import org.jspecify.annotations.Nullable;

/**
 * Ends a call whose next attempt could not start before its deadline
 * ({@code max-duration}). The cause is the last attempt's error.
 */
public class DeadlineExceededException extends RuntimeException {

    private final Duration maxDuration;

    /**
     * Creates the exception.
     * @param name the instance whose deadline passed
     * @param maxDuration the deadline of the call
     * @param lastError the last attempt's error
     */
    public DeadlineExceededException(String name, Duration maxDuration, @Nullable Throwable lastError) {
        super("Call of '" + name + "' could not complete within its deadline of " + Durations.format(maxDuration),
                lastError);
        this.maxDuration = maxDuration;
    }

    /**
     * Returns the deadline that was exceeded.
     * @return the call's maximum duration
     */
    public Duration maxDuration() {
        return this.maxDuration;
    }

}
