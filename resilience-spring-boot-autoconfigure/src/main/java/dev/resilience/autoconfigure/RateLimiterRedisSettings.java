package dev.resilience.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The settings of the Redis store of rate limiters,
 * {@code resilience.rate-limiter.redis}, for every rate limiter whose store is
 * {@code redis}.
 */
public class RateLimiterRedisSettings {

    /**
     * Prefix of the rate limiters' Redis keys, each "<prefix>{<name>}" (the name is the
     * Redis Cluster hash tag); defaults to "<spring.application.name>:ratelimit:", or
     * "ratelimit:" without a name.
     */
    private @Nullable String keyPrefix;

    /**
     * Longest time a permit waits for Redis; past it the call is judged as on-store-error
     * says.
     */
    private Duration storeTimeout = Duration.ofMillis(500);

    /**
     * What a call is when Redis fails or does not answer within store-timeout: local (by
     * the instance's own in-memory limiter with the same settings, so the instances
     * together may admit up to instances x limit) or reject (refused with
     * RateLimitedException).
     */
    private OnStoreError onStoreError = OnStoreError.LOCAL;

    /**
     * Returns the prefix of the Redis keys.
     * @return the prefix, or {@code null} for the default
     */
    public @Nullable String getKeyPrefix() {
        return this.keyPrefix;
    }

    /**
     * Sets the prefix of the Redis keys.
     * @param keyPrefix the prefix, or {@code null} for the default
     */
    public void setKeyPrefix(@Nullable String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    /**
     * Returns the longest time a permit waits for Redis.
     * @return the timeout
     */
    public Duration getStoreTimeout() {
        return this.storeTimeout;
    }

    /**
     * Sets the longest time a permit waits for Redis.
     * @param storeTimeout the timeout, positive
     */
    public void setStoreTimeout(Duration storeTimeout) {
        this.storeTimeout = storeTimeout;
    }

    /**
     * Returns what a call is when Redis fails or does not answer in time.
     * @return the choice
     */
    public OnStoreError getOnStoreError() {
        return this.onStoreError;
    }

    /**
     * Sets what a call is when Redis fails or does not answer in time.
     * @param onStoreError the choice
     */
    public void setOnStoreError(OnStoreError onStoreError) {
        this.onStoreError = onStoreError;
    }

    /**
     * What a call is when Redis fails or does not answer in time.
     */
    public enum OnStoreError {

        /**
         * Judged by the instance's own in-memory limiter with the same settings.
         */
        LOCAL,

        /**
         * Refused with {@code RateLimitedException}.
         */
        REJECT

    }

}
