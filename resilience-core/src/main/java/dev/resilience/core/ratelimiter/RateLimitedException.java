package dev.resilience.core.ratelimiter;

import java.time.Duration;
import java.util.Objects;

/**
 * Thrown when a {@link RateLimiter} refuses a call: no permit was free, and none would be
 * within the time the call may wait. It carries the wait after which a permit would be
 * free, so that a web layer can answer 429 with {@code Retry-After}. It carries no stack
 * trace, as it is thrown for every refused call and its cause is the rate, not the
 * caller's code. A pipeline never retries it and its breaker never records it.
 */
public class RateLimitedException extends RuntimeException {

    private final String rateLimiterName;

    private final Duration retryAfter;

    /**
     * Creates the exception for a rate limiter that refused a call.
     * @param rateLimiterName the name of the rate limiter
     * @param retryAfter the wait, from the refusal, after which a permit would be free
     */
    public RateLimitedException(String rateLimiterName, Duration retryAfter) {
        super("Rate limiter '" + rateLimiterName + "' refused the call; a permit is free in " + retryAfter, null, false,
                false);
        this.rateLimiterName = rateLimiterName;
        this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
    }

    /**
     * Returns the name of the rate limiter that refused the call.
     * @return the name
     */
    public String rateLimiterName() {
        return this.rateLimiterName;
    }

    /**
     * Returns how long after the refusal a permit would be free, if nobody else took it.
     * @return the wait, positive
     */
    public Duration retryAfter() {
        return this.retryAfter;
    }

}
