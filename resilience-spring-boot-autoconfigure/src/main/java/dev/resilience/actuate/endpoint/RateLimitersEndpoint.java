package dev.resilience.actuate.endpoint;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.ratelimiter.SharedPermits;
import dev.resilience.core.time.Durations;
import dev.resilience.registry.ResilienceRegistry;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code ratelimiters} endpoint, read-only: every rate limiter's resolved settings,
 * where it keeps its permits, and its live figures (the permits free now, the calls
 * permitted and rejected, the errors of its shared store).
 */
@Endpoint(id = "ratelimiters")
public class RateLimitersEndpoint {

    private static final String MEMORY = "memory";

    private final ResilienceRegistry registry;

    /**
     * Creates the endpoint.
     * @param registry the rate limiters to report
     */
    public RateLimitersEndpoint(ResilienceRegistry registry) {
        this.registry = registry;
    }

    /**
     * Reports every rate limiter, by name.
     * @return the rate limiters
     */
    @ReadOperation
    public RateLimitersDescriptor rateLimiters() {
        SortedMap<String, RateLimiterDescriptor> rateLimiters = new TreeMap<>();
        this.registry.rateLimiters().forEach((name, rateLimiter) -> rateLimiters.put(name, describe(rateLimiter)));
        return new RateLimitersDescriptor(rateLimiters);
    }

    private static RateLimiterDescriptor describe(RateLimiter rateLimiter) {
        RateLimiterConfig config = rateLimiter.config();
        SharedPermits shared = rateLimiter.sharedPermits();
        return new RateLimiterDescriptor(config.limit(), Durations.format(config.period()),
                Durations.format(config.timeout()), (shared != null) ? shared.store() : MEMORY,
                rateLimiter.availablePermits(), rateLimiter.permittedCalls(), rateLimiter.rejectedCalls(),
                (shared != null) ? shared.storeErrors() : 0);
    }

    /**
     * The rate limiters of the application.
     *
     * @param rateLimiters each rate limiter, by name
     */
    public record RateLimitersDescriptor(Map<String, RateLimiterDescriptor> rateLimiters) {
    }

    /**
     * One rate limiter.
     *
     * @param limit the calls admitted per period
     * @param period the period the limit applies to
     * @param timeout the longest wait for a permit
     * @param store where the permits are kept: {@code memory}, or the shared store, such
     * as {@code redis}
     * @param availablePermits the permits free now; for a shared store, as of its latest
     * answer to this instance
     * @param permittedCalls the calls this instance permitted since the start
     * @param rejectedCalls the calls this instance rejected since the start
     * @param storeErrors how many times the shared store could not answer since the
     * start, 0 in memory
     */
    public record RateLimiterDescriptor(int limit, String period, String timeout, String store, int availablePermits,
            long permittedCalls, long rejectedCalls, long storeErrors) {
    }

}
