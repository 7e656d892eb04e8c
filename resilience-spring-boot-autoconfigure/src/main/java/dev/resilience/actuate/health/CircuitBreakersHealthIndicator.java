package dev.resilience.actuate.health;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.resilience.core.circuitbreaker.CircuitBreakerMetrics;
import dev.resilience.registry.ResilienceRegistry;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Reports every circuit breaker's state and failure rate in its details. The status is
 * always UP, open breakers included: an open breaker is the application protecting itself
 * from a failing dependency, not the application failing, and taking the instance out of
 * rotation for it would spread the outage. Registered as the {@code circuitBreakers}
 * contributor.
 */
public class CircuitBreakersHealthIndicator extends AbstractHealthIndicator {

    private final ResilienceRegistry registry;

    /**
     * Creates the indicator.
     * @param registry the breakers to report
     */
    public CircuitBreakersHealthIndicator(ResilienceRegistry registry) {
        super("Circuit breakers health check failed");
        this.registry = registry;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.up();
        this.registry.circuitBreakers().forEach((name, breaker) -> {
            CircuitBreakerMetrics metrics = breaker.metrics();
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("state", metrics.state().name());
            detail.put("failureRate", metrics.failureRate());
            builder.withDetail(name, detail);
        });
    }

}
