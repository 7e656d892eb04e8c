package dev.resilience.cloud.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code spring.cloud.circuitbreaker.resilience} properties: the Spring Cloud
 * CircuitBreaker factories over the engine. The policies themselves are configured under
 * {@code resilience.circuit-breaker}, {@code resilience.retry},
 * {@code resilience.time-limiter} and {@code resilience.bulkhead}, with the breaker's id
 * as the instance name.
 */
@ConfigurationProperties("spring.cloud.circuitbreaker.resilience")
public class ResilienceCloudCircuitBreakerProperties {

    /** The default of {@link #getMaxIds()}. */
    public static final int DEFAULT_MAX_IDS = 100;

    /**
     * Whether the Spring Cloud CircuitBreaker factories run on the resilience engine.
     */
    private boolean enabled = true;

    /**
     * Most ids that no "instances" entry configures which get instances of their own; the
     * ids seen after them share the instances "spring-cloud:other".
     */
    private int maxIds = DEFAULT_MAX_IDS;

    /**
     * Returns whether the factories are on.
     * @return {@code true} unless switched off
     */
    public boolean isEnabled() {
        return this.enabled;
    }

    /**
     * Sets whether the factories are on.
     * @param enabled {@code false} to leave Spring Cloud CircuitBreaker to another
     * implementation
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * Returns the most unconfigured ids with instances of their own.
     * @return the bound
     */
    public int getMaxIds() {
        return this.maxIds;
    }

    /**
     * Sets the most unconfigured ids with instances of their own.
     * @param maxIds the bound, at least 0
     */
    public void setMaxIds(int maxIds) {
        if (maxIds < 0) {
            throw new IllegalArgumentException("max-ids must be at least 0, was " + maxIds);
        }
        this.maxIds = maxIds;
    }

}
