package dev.resilience.registry;

import java.time.Duration;
import java.util.Set;

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
import dev.resilience.core.ratelimiter.SharedPermits;
import dev.resilience.core.retry.RetryPolicy;
import org.jspecify.annotations.Nullable;

/**
 * Turns a named instance and the annotation that names it into the engine's policy, by
 * the precedence of the application's configuration. {@link ResilienceRegistry} asks it
 * once per breaker, retry instance, bulkhead and rate limiter name,
 * {@link ResiliencePolicies} for idempotency policies; neither sees the configuration
 * itself. The auto-configuration implements it over the {@code resilience.*} properties.
 * The registry calls it while it holds the name being resolved, so an implementation must
 * not ask the registry for instances.
 */
public interface PolicyResolver {

    /**
     * The time limit of a {@link TimeLimited} method that nothing configures.
     */
    Duration DEFAULT_TIME_LIMIT = Duration.ofSeconds(5);

    /**
     * Resolves a retry instance's policy.
     * @param name the retry instance's name
     * @param annotation the annotation that names it, if any
     * @return the policy
     * @throws InvalidResiliencePolicyException when a setting cannot make a valid policy
     */
    RetryPolicy retry(String name, @Nullable Retryable annotation);

    /**
     * Resolves a circuit breaker's configuration.
     * @param name the breaker's name
     * @param annotation the annotation that names it, if any
     * @return the configuration
     * @throws InvalidResiliencePolicyException when a setting cannot make a valid policy
     */
    CircuitBreakerConfig circuitBreaker(String name, @Nullable CircuitGuarded annotation);

    /**
     * Resolves an idempotency policy.
     * @param name the policy's name
     * @param annotation the annotation
     * @param store the store the policy keeps its results in
     * @return the policy
     * @throws InvalidResiliencePolicyException when a setting cannot make a valid policy
     */
    IdempotencyPolicy idempotency(String name, Idempotent annotation, IdempotencyStore store);

    /**
     * Returns the names of the retry instances the configuration declares, which exist
     * from the start whether or not a method names them.
     * @return the names
     */
    Set<String> configuredRetries();

    /**
     * Returns the names of the circuit breakers the configuration declares, which exist
     * from the start whether or not a method names them.
     * @return the names
     */
    Set<String> configuredCircuitBreakers();

    /**
     * Resolves a bulkhead's configuration. The default gives every bulkhead the built-in
     * defaults and reads no annotation: a resolver written before bulkheads existed keeps
     * working, and one that configures them overrides this.
     * @param name the bulkhead's name
     * @param annotation the annotation that names it, if any
     * @return the configuration
     * @throws InvalidResiliencePolicyException when a setting cannot make a valid policy
     */
    default BulkheadConfig bulkhead(String name, @Nullable Bulkhead annotation) {
        return BulkheadConfig.ofDefaults();
    }

    /**
     * Resolves a rate limiter's configuration. The default gives every rate limiter the
     * built-in defaults and reads no annotation, as {@link #bulkhead} does.
     * @param name the rate limiter's name
     * @param annotation the annotation that names it, if any
     * @return the configuration
     * @throws InvalidResiliencePolicyException when a setting cannot make a valid policy
     */
    default RateLimiterConfig rateLimiter(String name, @Nullable RateLimited annotation) {
        return RateLimiterConfig.ofDefaults();
    }

    /**
     * Resolves where a rate limiter takes its permits when they are shared with the other
     * instances of the application. The default shares none, as a resolver written before
     * shared rate limiters existed did.
     * @param name the rate limiter's name
     * @param annotation the annotation that names it, if any
     * @param config its resolved configuration
     * @return the shared permits, or {@code null} for a rate limiter whose permits are in
     * memory only
     * @throws InvalidResiliencePolicyException when the permits cannot be shared as
     * configured
     */
    default @Nullable SharedPermits rateLimiterPermits(String name, @Nullable RateLimited annotation,
            RateLimiterConfig config) {
        return null;
    }

    /**
     * Resolves a time limiter's time limit, the longest a run of its method may take. The
     * default gives every time limiter {@link #DEFAULT_TIME_LIMIT} and reads no
     * annotation, as {@link #bulkhead} does.
     * @param name the time limiter's name
     * @param annotation the annotation that names it, if any
     * @return the time limit, positive
     * @throws InvalidResiliencePolicyException when the setting is not a positive
     * duration
     */
    default Duration timeLimit(String name, @Nullable TimeLimited annotation) {
        return DEFAULT_TIME_LIMIT;
    }

    /**
     * Returns the names of the bulkheads the configuration declares, which exist from the
     * start whether or not a method names them.
     * @return the names; none by default
     */
    default Set<String> configuredBulkheads() {
        return Set.of();
    }

    /**
     * Returns the names of the rate limiters the configuration declares, which exist from
     * the start whether or not a method names them.
     * @return the names; none by default
     */
    default Set<String> configuredRateLimiters() {
        return Set.of();
    }

    /**
     * Resolves a hedging instance's policy. The default gives every hedging instance the
     * built-in defaults and reads no annotation, as {@link #bulkhead} does.
     * @param name the hedging instance's name
     * @param annotation the annotation that names it, if any
     * @return the policy
     * @throws InvalidResiliencePolicyException when a setting cannot make a valid policy
     */
    default HedgingPolicy hedging(String name, @Nullable Hedged annotation) {
        return HedgingPolicy.of(HedgingPolicy.DEFAULT_DELAY, HedgingPolicy.DEFAULT_MAX_HEDGES);
    }

    /**
     * Returns the names of the hedging instances the configuration declares, which exist
     * from the start whether or not a method names them.
     * @return the names; none by default
     */
    default Set<String> configuredHedging() {
        return Set.of();
    }

}
