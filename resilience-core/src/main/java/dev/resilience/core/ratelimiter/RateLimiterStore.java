package dev.resilience.core.ratelimiter;

/**
 * Keeps the permits of rate limiters outside the process, so that every process that
 * shares the store shares each limit:
 * {@link RateLimiter#of(String, RateLimiterConfig, dev.resilience.core.time.TimeSource, SharedPermits)}
 * takes the {@link SharedPermits} it makes. Thread-safe.
 */
public interface RateLimiterStore {

    /**
     * Makes the shared permits of one rate limiter.
     * @param name the rate limiter's name; two names never share permits
     * @param config its settings
     * @return the permits
     * @throws IllegalArgumentException if the store cannot keep a limiter with these
     * settings, saying why
     */
    SharedPermits permits(String name, RateLimiterConfig config);

}
