package dev.resilience.cloud.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceProperties;
import dev.resilience.cloud.circuitbreaker.CircuitBreakerIds;
import dev.resilience.cloud.circuitbreaker.CircuitBreakerPipelines;
import dev.resilience.cloud.circuitbreaker.PolicySelection;
import dev.resilience.cloud.circuitbreaker.ReactiveResilienceCircuitBreakerFactory;
import dev.resilience.cloud.circuitbreaker.ResilienceCircuitBreakerFactory;
import dev.resilience.registry.ResiliencePolicies;
import io.micrometer.observation.ObservationRegistry;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.client.circuitbreaker.Customizer;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreakerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configures Spring Cloud CircuitBreaker over the resilience engine when
 * spring-cloud-commons is on the class path: a {@link ResilienceCircuitBreakerFactory},
 * and with Reactor a {@link ReactiveResilienceCircuitBreakerFactory}, both over one
 * {@link CircuitBreakerPipelines} and so over the application's registry. Each factory
 * backs off when the application defines a factory of its kind (its own, or another
 * implementation's), and is handed to every {@link Customizer} of its type before use.
 * {@code spring.cloud.circuitbreaker.resilience.enabled=false} switches both off.
 */
@AutoConfiguration(after = ResilienceAutoConfiguration.class,
        beforeName = "org.springframework.cloud.openfeign.FeignAutoConfiguration")
@ConditionalOnClass(CircuitBreakerFactory.class)
@ConditionalOnBean(ResiliencePolicies.class)
@ConditionalOnBooleanProperty(name = "spring.cloud.circuitbreaker.resilience.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ResilienceCloudCircuitBreakerProperties.class)
public final class ResilienceCloudCircuitBreakerAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    CircuitBreakerPipelines circuitBreakerPipelines(ResiliencePolicies policies, ResilienceProperties properties,
            ResilienceCloudCircuitBreakerProperties cloudProperties, ObjectProvider<ObservationRegistry> observations) {
        CircuitBreakerIds ids = new CircuitBreakerIds(configured(properties), cloudProperties.getMaxIds());
        return new CircuitBreakerPipelines(policies, ids, configuredPolicies(properties),
                observations.getIfAvailable(() -> ObservationRegistry.NOOP));
    }

    @Bean
    @ConditionalOnMissingBean(CircuitBreakerFactory.class)
    ResilienceCircuitBreakerFactory resilienceCircuitBreakerFactory(CircuitBreakerPipelines pipelines,
            ObjectProvider<Customizer<ResilienceCircuitBreakerFactory>> customizers) {
        ResilienceCircuitBreakerFactory factory = new ResilienceCircuitBreakerFactory(pipelines);
        customizers.orderedStream().forEach((customizer) -> customizer.customize(factory));
        return factory;
    }

    /**
     * Tells whether the YAML names a name under the {@code instances} of any policy the
     * factories run.
     */
    private static Predicate<String> configured(ResilienceProperties properties) {
        List<Map<String, ?>> instances = List.of(properties.getCircuitBreaker().getInstances(),
                properties.getRetry().getInstances(), properties.getTimeLimiter().getInstances(),
                properties.getBulkhead().getInstances());
        return (name) -> instances.stream().anyMatch((configured) -> configured.containsKey(name));
    }

    /**
     * Gives the policies the YAML configures for a name under {@code instances}.
     */
    private static Function<String, PolicySelection> configuredPolicies(ResilienceProperties properties) {
        return (name) -> new PolicySelection(properties.getRetry().getInstances().containsKey(name),
                properties.getTimeLimiter().getInstances().containsKey(name),
                properties.getBulkhead().getInstances().containsKey(name));
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(Mono.class)
    static class ReactiveConfiguration {

        @Bean
        @ConditionalOnMissingBean(ReactiveCircuitBreakerFactory.class)
        ReactiveResilienceCircuitBreakerFactory reactiveResilienceCircuitBreakerFactory(
                CircuitBreakerPipelines pipelines,
                ObjectProvider<Customizer<ReactiveResilienceCircuitBreakerFactory>> customizers) {
            ReactiveResilienceCircuitBreakerFactory factory = new ReactiveResilienceCircuitBreakerFactory(pipelines);
            customizers.orderedStream().forEach((customizer) -> customizer.customize(factory));
            return factory;
        }

    }

}
