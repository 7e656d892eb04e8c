package dev.resilience.autoconfigure;

import dev.resilience.actuate.endpoint.BulkheadsEndpoint;
import dev.resilience.actuate.endpoint.ChaosEndpoint;
import dev.resilience.actuate.endpoint.CircuitBreakersEndpoint;
import dev.resilience.actuate.endpoint.DeadLettersEndpoint;
import dev.resilience.actuate.endpoint.RateLimitersEndpoint;
import dev.resilience.actuate.endpoint.ResilienceEndpointsRuntimeHints;
import dev.resilience.actuate.endpoint.RetriesEndpoint;
import dev.resilience.chaos.ChaosInstances;
import dev.resilience.core.deadletter.DeadLetterSanitizer;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.event.CircuitBreakerEvents;
import dev.resilience.redrive.DeadLetterRedrive;
import dev.resilience.registry.ResilienceRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ImportRuntimeHints;

/**
 * Auto-configures the {@code circuitbreakers}, {@code retries}, {@code bulkheads},
 * {@code ratelimiters}, {@code deadletters} and {@code chaos} Actuator endpoints, each
 * when it is enabled and exposed; the dead-letter endpoint only when the application has
 * a {@link DeadLetterStore}, the chaos endpoint only while chaos is enabled; and a
 * {@link SanitizingFunction} that masks the fingerprint secret at {@code configprops} and
 * {@code env}. Ordered after every auto-configuration that defines a store, in memory or
 * in Redis, so that the condition sees the store whichever backs it.
 */
@AutoConfiguration(
        after = { ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                CircuitBreakerEventsAutoConfiguration.class, DeadLetterRedriveAutoConfiguration.class },
        afterName = "org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration")
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(ResilienceRegistry.class)
@ImportRuntimeHints(ResilienceEndpointsRuntimeHints.class)
public final class ResilienceEndpointsAutoConfiguration {

    /** Masks the fingerprint secret wherever Actuator shows configuration values. */
    @Bean
    SanitizingFunction resilienceFingerprintSecretSanitizingFunction() {
        return new FingerprintSecretSanitizingFunction();
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(CircuitBreakersEndpoint.class)
    CircuitBreakersEndpoint circuitBreakersEndpoint(ResilienceRegistry registry,
            ObjectProvider<CircuitBreakerEvents> events) {
        return new CircuitBreakersEndpoint(registry, events.getIfAvailable());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(RetriesEndpoint.class)
    RetriesEndpoint retriesEndpoint(ResilienceRegistry registry) {
        return new RetriesEndpoint(registry);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(BulkheadsEndpoint.class)
    BulkheadsEndpoint bulkheadsEndpoint(ResilienceRegistry registry) {
        return new BulkheadsEndpoint(registry);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(RateLimitersEndpoint.class)
    RateLimitersEndpoint rateLimitersEndpoint(ResilienceRegistry registry) {
        return new RateLimitersEndpoint(registry);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(DeadLetterStore.class)
    @ConditionalOnAvailableEndpoint(DeadLettersEndpoint.class)
    DeadLettersEndpoint deadLettersEndpoint(DeadLetterStore store, ResilienceProperties properties,
            ObjectProvider<DeadLetterRedrive> redrive) {
        ResilienceProperties.DeadLetter deadLetter = properties.getDeadLetter();
        return new DeadLettersEndpoint(store, new DeadLetterSanitizer(),
                Show.valueOf(deadLetter.getShowValues().name()), deadLetter.getRoles(), redrive.getIfAvailable());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(ChaosInstances.class)
    @ConditionalOnAvailableEndpoint(ChaosEndpoint.class)
    ChaosEndpoint chaosEndpoint(ChaosInstances chaos) {
        return new ChaosEndpoint(chaos);
    }

}
