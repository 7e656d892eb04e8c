package dev.resilience.autoconfigure;

import dev.resilience.actuate.endpoint.CircuitBreakersEndpoint;
import dev.resilience.actuate.endpoint.DeadLettersEndpoint;
import dev.resilience.actuate.endpoint.RetriesEndpoint;
import dev.resilience.actuate.health.CircuitBreakersHealthIndicator;
import dev.resilience.event.CircuitBreakerEvents;
import dev.resilience.metrics.ResilienceCallsMeterFilter;
import dev.resilience.metrics.ResilienceMeterBinder;
import dev.resilience.registry.ResilienceRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The events, endpoints, health and metrics auto-configurations: what they add, when they
 * back off, and when they stay away.
 */
class ObservabilityAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                CircuitBreakerEventsAutoConfiguration.class, EndpointAutoConfiguration.class,
                ResilienceEndpointsAutoConfiguration.class, CircuitBreakersHealthContributorAutoConfiguration.class,
                ResilienceMetricsAutoConfiguration.class))
        .withPropertyValues("management.endpoints.web.exposure.include=circuitbreakers,retries,deadletters");

    @Test
    void whenEverythingIsAvailableThenEveryBeanIsAdded() {
        this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .run((context) -> assertThat(context).hasSingleBean(CircuitBreakerEvents.class)
                .hasSingleBean(CircuitBreakersEndpoint.class)
                .hasSingleBean(RetriesEndpoint.class)
                .hasSingleBean(DeadLettersEndpoint.class)
                .hasBean("circuitBreakersHealthIndicator")
                .hasSingleBean(ResilienceMeterBinder.class)
                .hasSingleBean(ResilienceCallsMeterFilter.class));
    }

    @Test
    void whenUserDefinesTheBeansThenTheAutoConfiguredOnesBackOff() {
        this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withUserConfiguration(UserBeans.class)
            .run((context) -> {
                assertThat(context).getBean(CircuitBreakerEvents.class).isSameAs(context.getBean("userEvents"));
                assertThat(context).getBean(CircuitBreakersEndpoint.class)
                    .isSameAs(context.getBean("userCircuitBreakersEndpoint"));
                assertThat(context).getBean(RetriesEndpoint.class).isSameAs(context.getBean("userRetriesEndpoint"));
                assertThat(context).getBean(ResilienceMeterBinder.class).isSameAs(context.getBean("userBinder"));
                assertThat(context).getBean("circuitBreakersHealthIndicator")
                    .isNotInstanceOf(CircuitBreakersHealthIndicator.class);
            });
    }

    @Test
    void whenEndpointsAreNotExposedThenTheyAreNotAdded() {
        this.runner.withPropertyValues("management.endpoints.web.exposure.include=health")
            .run((context) -> assertThat(context).doesNotHaveBean(CircuitBreakersEndpoint.class)
                .doesNotHaveBean(RetriesEndpoint.class)
                .doesNotHaveBean(DeadLettersEndpoint.class));
    }

    @Test
    void whenAnEndpointIsDisabledThenOnlyThatOneIsMissing() {
        this.runner.withPropertyValues("management.endpoint.retries.enabled=false")
            .run((context) -> assertThat(context).hasSingleBean(CircuitBreakersEndpoint.class)
                .doesNotHaveBean(RetriesEndpoint.class));
    }

    @Test
    void whenDeadLettersAreOffThenTheirEndpointIsNotAdded() {
        this.runner.withPropertyValues("resilience.dead-letter.store=none")
            .run((context) -> assertThat(context).hasSingleBean(RetriesEndpoint.class)
                .doesNotHaveBean(DeadLettersEndpoint.class));
    }

    @Test
    void whenActuatorIsMissingThenNoEndpointIsAdded() {
        this.runner.withClassLoader(new FilteredClassLoader(Endpoint.class))
            .run((context) -> assertThat(context).hasSingleBean(CircuitBreakerEvents.class)
                .doesNotHaveBean(CircuitBreakersEndpoint.class)
                .doesNotHaveBean(RetriesEndpoint.class));
    }

    @Test
    void whenTheHealthModuleIsMissingThenNoHealthIndicatorIsAdded() {
        this.runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
            .run((context) -> assertThat(context).doesNotHaveBean(CircuitBreakersHealthIndicator.class));
    }

    @Test
    void whenTheHealthIndicatorIsDisabledThenItIsNotAdded() {
        this.runner.withPropertyValues("management.health.circuitbreakers.enabled=false")
            .run((context) -> assertThat(context).doesNotHaveBean(CircuitBreakersHealthIndicator.class));
    }

    @Test
    void whenMicrometerIsMissingThenNoMeterIsBound() {
        this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
            .run((context) -> assertThat(context).doesNotHaveBean(ResilienceMeterBinder.class)
                .doesNotHaveBean(ResilienceCallsMeterFilter.class));
    }

    @Test
    void whenThereIsNoMeterRegistryThenNoMeterIsBound() {
        this.runner.run((context) -> assertThat(context).doesNotHaveBean(ResilienceMeterBinder.class));
    }

    @Configuration(proxyBeanMethods = false)
    static class UserBeans {

        @Bean
        CircuitBreakerEvents userEvents(ResilienceRegistry registry, ApplicationEventPublisher publisher) {
            return new CircuitBreakerEvents(registry, publisher, 5);
        }

        @Bean
        CircuitBreakersEndpoint userCircuitBreakersEndpoint(ResilienceRegistry registry) {
            return new CircuitBreakersEndpoint(registry, null);
        }

        @Bean
        RetriesEndpoint userRetriesEndpoint(ResilienceRegistry registry) {
            return new RetriesEndpoint(registry);
        }

        @Bean
        ResilienceMeterBinder userBinder(ResilienceRegistry registry, MeterRegistry meterRegistry) {
            return new ResilienceMeterBinder(registry, meterRegistry);
        }

        @Bean
        HealthIndicator circuitBreakersHealthIndicator() {
            return () -> Health.up().build();
        }

    }

}
