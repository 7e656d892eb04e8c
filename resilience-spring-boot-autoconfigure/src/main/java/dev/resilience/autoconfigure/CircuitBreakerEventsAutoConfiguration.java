package dev.resilience.autoconfigure;

import dev.resilience.event.CircuitBreakerEvents;
import dev.resilience.event.CircuitBreakerTransitionEvent;
import dev.resilience.registry.ResilienceRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configures the {@link CircuitBreakerEvents} of the application's breakers: each
 * transition published as a {@link CircuitBreakerTransitionEvent} and logged, and the
 * recent events kept for the {@code circuitbreakers} endpoint.
 */
@AutoConfiguration(after = ResilienceAutoConfiguration.class)
@ConditionalOnBean(ResilienceRegistry.class)
public final class CircuitBreakerEventsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    CircuitBreakerEvents circuitBreakerEvents(ResilienceRegistry registry, ApplicationEventPublisher publisher) {
        return new CircuitBreakerEvents(registry, publisher, CircuitBreakerEvents.DEFAULT_CAPACITY);
    }

}
