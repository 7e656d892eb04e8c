package dev.resilience.autoconfigure;

import dev.resilience.actuate.health.CircuitBreakersHealthIndicator;
import dev.resilience.registry.ResilienceRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configures the {@code circuitBreakers} health contributor, unless
 * {@code management.health.circuitbreakers.enabled} is {@code false}.
 */
@AutoConfiguration(after = ResilienceAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(ResilienceRegistry.class)
@ConditionalOnEnabledHealthIndicator("circuitbreakers")
public final class CircuitBreakersHealthContributorAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "circuitBreakersHealthIndicator")
    CircuitBreakersHealthIndicator circuitBreakersHealthIndicator(ResilienceRegistry registry) {
        return new CircuitBreakersHealthIndicator(registry);
    }

}
