package dev.resilience.autoconfigure;

import dev.resilience.actuate.endpoint.CircuitBreakersEndpoint;
import dev.resilience.actuate.endpoint.DeadLettersEndpoint;
import dev.resilience.actuate.endpoint.RetriesEndpoint;
import dev.resilience.actuate.health.CircuitBreakersHealthIndicator;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.metrics.ResilienceMeterBinder;
import dev.resilience.redis.RedisDeadLetterStore;
import dev.resilience.redis.RedisIdempotencyStore;
import dev.resilience.redis.RedisServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every endpoint, health contributor and meter binder exists whichever store backs the
 * idempotency keys and the dead letters, with the auto-configurations in the order Spring
 * Boot sorts them.
 */
class StoreChoiceAutoConfigurationTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withPropertyValues(FingerprintSecret.PROPERTY)
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                ResilienceRedisAutoConfiguration.class, CircuitBreakerEventsAutoConfiguration.class,
                ResilienceEndpointsAutoConfiguration.class, CircuitBreakersHealthContributorAutoConfiguration.class,
                ResilienceMetricsAutoConfiguration.class, EndpointAutoConfiguration.class,
                DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
        .withPropertyValues("management.endpoints.web.exposure.include=circuitbreakers,retries,deadletters")
        .withPropertyValues(redis.springProperties().toArray(String[]::new))
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new);

    @ParameterizedTest(name = "idempotency store {0}, dead-letter store {1}")
    @CsvSource({ "memory, memory", "memory, redis", "memory, none", "redis, memory", "redis, redis", "redis, none" })
    void everyEndpointHealthContributorAndMeterBinderExistsWhicheverStoresBackThem(String idempotencyStore,
            String deadLetterStore) {
        this.runner
            .withPropertyValues("resilience.idempotency.store=" + idempotencyStore,
                    "resilience.dead-letter.store=" + deadLetterStore)
            .run((context) -> {
                assertThat(context).hasNotFailed()
                    .hasSingleBean(CircuitBreakersEndpoint.class)
                    .hasSingleBean(RetriesEndpoint.class)
                    .hasSingleBean(ResilienceMeterBinder.class);
                assertThat(context).getBean("circuitBreakersHealthIndicator")
                    .isInstanceOf(CircuitBreakersHealthIndicator.class);
                assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf("redis".equals(idempotencyStore)
                        ? RedisIdempotencyStore.class : InMemoryIdempotencyStore.class);
                if ("none".equals(deadLetterStore)) {
                    assertThat(context).doesNotHaveBean(DeadLetterStore.class)
                        .doesNotHaveBean(DeadLettersEndpoint.class);
                }
                else {
                    assertThat(context).hasSingleBean(DeadLettersEndpoint.class);
                    assertThat(context.getBean(DeadLetterStore.class)).isInstanceOf("redis".equals(deadLetterStore)
                            ? RedisDeadLetterStore.class : InMemoryDeadLetterStore.class);
                }
            });
    }

}
