package dev.resilience.registry;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ResilienceRegistry#reset()}: every instance of every kind back to its state at
 * creation, the same objects kept.
 */
class ResilienceRegistryResetTests {

    private final VirtualTimeSource time = new VirtualTimeSource();

    private final RetryBudget budget = new RetryBudget(0, 1, Duration.ofSeconds(10), this.time);

    private final ResilienceRegistry registry = new ResilienceRegistry(new BudgetedPolicyResolver(this.budget)
        .circuitBreakerConfig(CircuitBreakerConfig.builder().minimumCalls(2).slidingWindowSize(2).build()), this.time);

    @Test
    void resetsEveryBreakerBudgetAndRateLimiterAndKeepsTheInstances() {
        CircuitBreaker payments = this.registry.circuitBreaker("payments");
        CircuitBreaker quotes = this.registry.circuitBreaker("quotes");
        fail(payments, 2);
        quotes.transitionTo(CircuitBreakerState.FORCED_OPEN);
        RetryPolicy retry = this.registry.retry("payment");
        assertThat(retry.budget()).isSameAs(this.budget);
        assertThat(this.budget.tryAcquireRetry()).isTrue();
        assertThat(this.budget.tryAcquireRetry()).isFalse();
        RateLimiter limiter = this.registry.rateLimiter("search", null);
        while (limiter.tryAcquire() == 0) {
            // spends the burst
        }

        this.registry.reset();

        assertThat(this.registry.findCircuitBreaker("payments")).containsSame(payments);
        assertThat(payments.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(payments.metrics().bufferedCalls()).isZero();
        assertThat(quotes.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(this.budget.tryAcquireRetry()).isTrue();
        assertThat(limiter.availablePermits()).isEqualTo(limiter.config().limit());
    }

    private static void fail(CircuitBreaker breaker, int times) {
        for (int i = 0; i < times; i++) {
            breaker.onError(breaker.acquirePermit(), 0, new IOException("down"));
        }
    }

    /**
     * Retry instances that share one budget.
     */
    private static final class BudgetedPolicyResolver implements PolicyResolver {

        private final CountingPolicyResolver delegate = new CountingPolicyResolver();

        private final RetryBudget budget;

        BudgetedPolicyResolver(RetryBudget budget) {
            this.budget = budget;
        }

        BudgetedPolicyResolver circuitBreakerConfig(CircuitBreakerConfig config) {
            this.delegate.circuitBreakerConfig(config);
            return this;
        }

        @Override
        public RetryPolicy retry(String name, @Nullable Retryable annotation) {
            return RetryPolicy.builder().budget(this.budget).build();
        }

        @Override
        public CircuitBreakerConfig circuitBreaker(String name, @Nullable CircuitGuarded annotation) {
            return this.delegate.circuitBreaker(name, annotation);
        }

        @Override
        public IdempotencyPolicy idempotency(String name, Idempotent annotation, IdempotencyStore store) {
            return this.delegate.idempotency(name, annotation, store);
        }

        @Override
        public Set<String> configuredRetries() {
            return Set.of();
        }

        @Override
        public Set<String> configuredCircuitBreakers() {
            return Set.of();
        }

    }

}
