package dev.resilience.core.retry;

import java.time.Duration;

/**
 * Implemented by a failure that says how long to wait before trying again, as an HTTP
 * {@code Retry-After} header does. The wait before the next attempt is then at least that
 * long, and the deadline still applies.
 */
public interface RetryAfter {

    /**
     * Returns the wait the failed attempt asked for.
     * @return the minimum wait before the next attempt
     */
    Duration retryAfter();

}
