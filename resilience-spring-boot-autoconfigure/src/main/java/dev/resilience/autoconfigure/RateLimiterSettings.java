package dev.resilience.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The settings of rate limiters, used both for {@code resilience.rate-limiter.defaults}
 * and for each of {@code resilience.rate-limiter.instances}. A setting left {@code null}
 * is unset: it falls back to the annotation, then to the defaults, then to the built-in
 * value of the core.
 */
public class RateLimiterSettings {

    /**
     * Calls admitted per period, from 1 to 1000000.
     */
    private @Nullable Integer limit;

    /**
     * Period the limit applies to, from 1ms to 1d; permits refill continuously, one every
     * period / limit.
     */
    private @Nullable Duration period;

    /**
     * How long a call waits for a permit; 0 refuses at once. At most 1h.
     */
    private @Nullable Duration timeout;

    /**
     * Where the limiter keeps its state: memory (each instance of the application limits
     * on its own) or redis (one limit shared by every instance, needs a
     * RedisConnectionFactory; see resilience.rate-limiter.redis).
     */
    private ResilienceProperties.Idempotency.@Nullable Store store;

    /**
     * Returns the calls admitted per period.
     * @return the limit, or {@code null} if unset
     */
    public @Nullable Integer getLimit() {
        return this.limit;
    }

    /**
     * Sets the calls admitted per period.
     * @param limit the limit, or {@code null} to unset
     */
    public void setLimit(@Nullable Integer limit) {
        this.limit = limit;
    }

    /**
     * Returns the period the limit applies to.
     * @return the period, or {@code null} if unset
     */
    public @Nullable Duration getPeriod() {
        return this.period;
    }

    /**
     * Sets the period the limit applies to.
     * @param period the period, or {@code null} to unset
     */
    public void setPeriod(@Nullable Duration period) {
        this.period = period;
    }

    /**
     * Returns the longest wait for a permit.
     * @return the wait, or {@code null} if unset
     */
    public @Nullable Duration getTimeout() {
        return this.timeout;
    }

    /**
     * Sets the longest wait for a permit.
     * @param timeout the wait, or {@code null} to unset
     */
    public void setTimeout(@Nullable Duration timeout) {
        this.timeout = timeout;
    }

    /**
     * Returns where the limiter keeps its state.
     * @return the store, or {@code null} if unset
     */
    public ResilienceProperties.Idempotency.@Nullable Store getStore() {
        return this.store;
    }

    /**
     * Sets where the limiter keeps its state.
     * @param store the store, or {@code null} to unset
     */
    public void setStore(ResilienceProperties.Idempotency.@Nullable Store store) {
        this.store = store;
    }

}
