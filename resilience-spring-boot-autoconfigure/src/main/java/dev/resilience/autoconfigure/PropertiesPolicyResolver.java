package dev.resilience.autoconfigure;

import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;

import dev.resilience.annotation.Bulkhead;
import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Hedged;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.RateLimited;
import dev.resilience.annotation.Retryable;
import dev.resilience.annotation.TimeLimited;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.ratelimiter.RateLimiterStore;
import dev.resilience.core.ratelimiter.SharedPermits;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.TimeSource;
import dev.resilience.registry.PolicyResolver;
import org.jspecify.annotations.Nullable;

/**
 * The {@link PolicyResolver} of the {@code resilience.*} properties: each kind of policy
 * by its own resolver.
 */
final class PropertiesPolicyResolver implements PolicyResolver {

    private final ResilienceProperties properties;

    private final RetryPolicyResolver retry;

    private final CircuitBreakerConfigResolver circuitBreaker;

    private final IdempotencyPolicyResolver idempotency;

    private final BulkheadConfigResolver bulkhead;

    private final RateLimiterConfigResolver rateLimiter;

    private final TimeLimitResolver timeLimit;

    private final HedgingPolicyResolver hedging;

    /**
     * Creates the resolver.
     * @param properties the {@code resilience.*} properties
     * @param timeSource the clock of the retry budgets
     * @param rateLimiterStore supplies the store of the rate limiters whose store is
     * redis, or {@code null} when the application has none
     */
    PropertiesPolicyResolver(ResilienceProperties properties, TimeSource timeSource,
            Supplier<@Nullable RateLimiterStore> rateLimiterStore) {
        this.properties = properties;
        this.retry = new RetryPolicyResolver(properties, timeSource);
        this.circuitBreaker = new CircuitBreakerConfigResolver(properties);
        this.idempotency = new IdempotencyPolicyResolver(properties);
        this.bulkhead = new BulkheadConfigResolver(properties);
        this.rateLimiter = new RateLimiterConfigResolver(properties, rateLimiterStore);
        this.timeLimit = new TimeLimitResolver(properties);
        this.hedging = new HedgingPolicyResolver(properties);
    }

    @Override
    public RetryPolicy retry(String name, @Nullable Retryable annotation) {
        return this.retry.resolve(name, annotation);
    }

    @Override
    public CircuitBreakerConfig circuitBreaker(String name, @Nullable CircuitGuarded annotation) {
        return this.circuitBreaker.resolve(name, annotation);
    }

    @Override
    public IdempotencyPolicy idempotency(String name, Idempotent annotation, IdempotencyStore store) {
        return this.idempotency.resolve(name, annotation, store);
    }

    @Override
    public Set<String> configuredRetries() {
        return this.properties.getRetry().getInstances().keySet();
    }

    @Override
    public Set<String> configuredCircuitBreakers() {
        return this.properties.getCircuitBreaker().getInstances().keySet();
    }

    @Override
    public BulkheadConfig bulkhead(String name, @Nullable Bulkhead annotation) {
        return this.bulkhead.resolve(name, annotation);
    }

    @Override
    public RateLimiterConfig rateLimiter(String name, @Nullable RateLimited annotation) {
        return this.rateLimiter.resolve(name, annotation);
    }

    @Override
    public @Nullable SharedPermits rateLimiterPermits(String name, @Nullable RateLimited annotation,
            RateLimiterConfig config) {
        return this.rateLimiter.sharedPermits(name, annotation, config);
    }

    @Override
    public Duration timeLimit(String name, @Nullable TimeLimited annotation) {
        return this.timeLimit.resolve(name, annotation);
    }

    @Override
    public Set<String> configuredBulkheads() {
        return this.properties.getBulkhead().getInstances().keySet();
    }

    @Override
    public Set<String> configuredRateLimiters() {
        return this.properties.getRateLimiter().getInstances().keySet();
    }

    @Override
    public HedgingPolicy hedging(String name, @Nullable Hedged annotation) {
        return this.hedging.resolve(name, annotation);
    }

    @Override
    public Set<String> configuredHedging() {
        return this.properties.getHedging().getInstances().keySet();
    }

}
