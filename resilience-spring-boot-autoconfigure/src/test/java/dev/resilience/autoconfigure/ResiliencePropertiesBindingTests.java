package dev.resilience.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

import dev.resilience.core.circuitbreaker.SlidingWindowType;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.retry.Jitter;
import dev.resilience.redis.RedisDeadLetterStore;
import dev.resilience.redis.RedisIdempotencyStore;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.Ordered;

import static org.assertj.core.api.Assertions.assertThat;

class ResiliencePropertiesBindingTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withUserConfiguration(PropertiesConfiguration.class);

    @Test
    void whenNothingIsSetThenEveryOverridableSettingIsUnsetAndTheOthersHoldTheCoreDefaults() {
        this.contextRunner.run((context) -> {
            ResilienceProperties properties = context.getBean(ResilienceProperties.class);
            assertThat(properties.getInterceptorOrder()).isEqualTo(Ordered.LOWEST_PRECEDENCE - 1);
            assertThat(properties.getRetry().getDefaults()).hasAllNullFieldsOrPropertiesExcept("budget");
            assertThat(properties.getRetry().getDefaults().getBudget()).hasAllNullFieldsOrProperties();
            assertThat(properties.getRetry().getInstances()).isEmpty();
            assertThat(properties.getCircuitBreaker().getDefaults()).hasAllNullFieldsOrProperties();
            assertThat(properties.getCircuitBreaker().getInstances()).isEmpty();
            ResilienceProperties.Idempotency idempotency = properties.getIdempotency();
            assertThat(idempotency.getStore()).isEqualTo(ResilienceProperties.Idempotency.Store.MEMORY);
            assertThat(idempotency.getTtl()).isEqualTo(IdempotencyPolicy.DEFAULT_TTL);
            assertThat(idempotency.getInProgressTtl()).isEqualTo(IdempotencyPolicy.DEFAULT_IN_PROGRESS_TTL);
            assertThat(idempotency.getKeyPrefix()).isNull();
            assertThat(idempotency.getMaxEntries()).isEqualTo(InMemoryIdempotencyStore.DEFAULT_MAX_ENTRIES);
            assertThat(properties.getDeadLetter().getStore()).isEqualTo(ResilienceProperties.DeadLetter.Store.MEMORY);
            assertThat(properties.getDeadLetter().getCapacity()).isEqualTo(InMemoryDeadLetterStore.DEFAULT_CAPACITY);
        });
    }

    @Test
    void retryDefaultsAreBoundFromProperties() {
        this.contextRunner
            .withPropertyValues("resilience.retry.defaults.max-attempts=5", "resilience.retry.defaults.delay=100ms",
                    "resilience.retry.defaults.multiplier=1.5", "resilience.retry.defaults.max-delay=2s",
                    "resilience.retry.defaults.jitter=decorrelated",
                    "resilience.retry.defaults.retry-on=java.io.IOException,java.util.concurrent.TimeoutException",
                    "resilience.retry.defaults.abort-on[0]=java.lang.IllegalArgumentException",
                    "resilience.retry.defaults.attempt-timeout=1s", "resilience.retry.defaults.max-duration=10s",
                    "resilience.retry.defaults.budget.enabled=false", "resilience.retry.defaults.budget.ratio=0.5",
                    "resilience.retry.defaults.budget.min-retries-per-second=3",
                    "resilience.retry.defaults.budget.window=30s")
            .run((context) -> {
                RetrySettings defaults = context.getBean(ResilienceProperties.class).getRetry().getDefaults();
                assertThat(defaults.getMaxAttempts()).isEqualTo(5);
                assertThat(defaults.getDelay()).isEqualTo(Duration.ofMillis(100));
                assertThat(defaults.getMultiplier()).isEqualTo(1.5);
                assertThat(defaults.getMaxDelay()).isEqualTo(Duration.ofSeconds(2));
                assertThat(defaults.getJitter()).isEqualTo(Jitter.DECORRELATED);
                assertThat(defaults.getRetryOn()).containsExactly(IOException.class, TimeoutException.class);
                assertThat(defaults.getAbortOn()).containsExactly(IllegalArgumentException.class);
                assertThat(defaults.getAttemptTimeout()).isEqualTo(Duration.ofSeconds(1));
                assertThat(defaults.getMaxDuration()).isEqualTo(Duration.ofSeconds(10));
                assertThat(defaults.getBudget().getEnabled()).isFalse();
                assertThat(defaults.getBudget().getRatio()).isEqualTo(0.5);
                assertThat(defaults.getBudget().getMinRetriesPerSecond()).isEqualTo(3);
                assertThat(defaults.getBudget().getWindow()).isEqualTo(Duration.ofSeconds(30));
            });
    }

    @Test
    void retryInstanceKeepsOnlyTheSettingsItSets() {
        this.contextRunner
            .withPropertyValues("resilience.retry.instances.payment.max-attempts=4",
                    "resilience.retry.instances.payment.budget.ratio=0.2")
            .run((context) -> {
                RetrySettings payment = context.getBean(ResilienceProperties.class)
                    .getRetry()
                    .getInstances()
                    .get("payment");
                assertThat(payment.getMaxAttempts()).isEqualTo(4);
                assertThat(payment.getBudget().getRatio()).isEqualTo(0.2);
                assertThat(payment).hasAllNullFieldsOrPropertiesExcept("maxAttempts", "budget");
                assertThat(payment.getBudget()).hasAllNullFieldsOrPropertiesExcept("ratio");
            });
    }

    @Test
    void circuitBreakerDefaultsAndInstancesAreBoundFromProperties() {
        this.contextRunner
            .withPropertyValues("resilience.circuit-breaker.defaults.sliding-window-type=time",
                    "resilience.circuit-breaker.defaults.sliding-window-size=60",
                    "resilience.circuit-breaker.defaults.minimum-calls=10",
                    "resilience.circuit-breaker.defaults.failure-rate-threshold=25.5",
                    "resilience.circuit-breaker.defaults.slow-call-duration=2s",
                    "resilience.circuit-breaker.defaults.slow-call-rate-threshold=80",
                    "resilience.circuit-breaker.defaults.wait-in-open=15s",
                    "resilience.circuit-breaker.defaults.half-open-calls=3",
                    "resilience.circuit-breaker.defaults.record-on=java.io.IOException",
                    "resilience.circuit-breaker.defaults.ignore-on=java.lang.IllegalStateException",
                    "resilience.circuit-breaker.instances.payment-gateway.minimum-calls=7")
            .run((context) -> {
                ResilienceProperties.CircuitBreaker breaker = context.getBean(ResilienceProperties.class)
                    .getCircuitBreaker();
                CircuitBreakerSettings defaults = breaker.getDefaults();
                assertThat(defaults.getSlidingWindowType()).isEqualTo(SlidingWindowType.TIME);
                assertThat(defaults.getSlidingWindowSize()).isEqualTo(60);
                assertThat(defaults.getMinimumCalls()).isEqualTo(10);
                assertThat(defaults.getFailureRateThreshold()).isEqualTo(25.5f);
                assertThat(defaults.getSlowCallDuration()).isEqualTo(Duration.ofSeconds(2));
                assertThat(defaults.getSlowCallRateThreshold()).isEqualTo(80f);
                assertThat(defaults.getWaitInOpen()).isEqualTo(Duration.ofSeconds(15));
                assertThat(defaults.getHalfOpenCalls()).isEqualTo(3);
                assertThat(defaults.getRecordOn()).isEqualTo(List.of(IOException.class));
                assertThat(defaults.getIgnoreOn()).isEqualTo(List.of(IllegalStateException.class));
                CircuitBreakerSettings gateway = breaker.getInstances().get("payment-gateway");
                assertThat(gateway.getMinimumCalls()).isEqualTo(7);
                assertThat(gateway).hasAllNullFieldsOrPropertiesExcept("minimumCalls");
            });
    }

    @Test
    void idempotencyDeadLetterAndInterceptorOrderAreBoundFromProperties() {
        this.contextRunner
            .withPropertyValues("resilience.idempotency.store=redis", "resilience.idempotency.ttl=1h",
                    "resilience.idempotency.in-progress-ttl=30s", "resilience.idempotency.key-prefix=orders:",
                    "resilience.idempotency.max-entries=500", "resilience.idempotency.store-timeout=750ms",
                    "resilience.dead-letter.store=none", "resilience.dead-letter.capacity=20",
                    "resilience.dead-letter.store-timeout=3s", "resilience.interceptor-order=42")
            .run((context) -> {
                ResilienceProperties properties = context.getBean(ResilienceProperties.class);
                ResilienceProperties.Idempotency idempotency = properties.getIdempotency();
                assertThat(idempotency.getStore()).isEqualTo(ResilienceProperties.Idempotency.Store.REDIS);
                assertThat(idempotency.getTtl()).isEqualTo(Duration.ofHours(1));
                assertThat(idempotency.getInProgressTtl()).isEqualTo(Duration.ofSeconds(30));
                assertThat(idempotency.getKeyPrefix()).isEqualTo("orders:");
                assertThat(idempotency.getMaxEntries()).isEqualTo(500);
                assertThat(idempotency.getStoreTimeout()).isEqualTo(Duration.ofMillis(750));
                assertThat(properties.getDeadLetter().getStore()).isEqualTo(ResilienceProperties.DeadLetter.Store.NONE);
                assertThat(properties.getDeadLetter().getCapacity()).isEqualTo(20);
                assertThat(properties.getDeadLetter().getStoreTimeout()).isEqualTo(Duration.ofSeconds(3));
                assertThat(properties.getInterceptorOrder()).isEqualTo(42);
            });
    }

    @Test
    void storeTimeoutsDefaultToTheRedisStoresOwnDefaults() {
        this.contextRunner.run((context) -> {
            ResilienceProperties properties = context.getBean(ResilienceProperties.class);
            assertThat(properties.getIdempotency().getStoreTimeout()).isEqualTo(RedisIdempotencyStore.DEFAULT_TIMEOUT)
                .isEqualTo(Duration.ofSeconds(2));
            assertThat(properties.getDeadLetter().getStoreTimeout()).isEqualTo(RedisDeadLetterStore.DEFAULT_TIMEOUT)
                .isEqualTo(Duration.ofSeconds(2));
        });
    }

    @Test
    void unknownTopLevelKeyFailsTheStartNamingTheKey() {
        this.contextRunner.withPropertyValues("resilience.retires.defaults.max-attempts=2")
            .run((context) -> assertThat(context).getFailure()
                .rootCause()
                .hasMessageContaining("resilience.retires.defaults.max-attempts"));
    }

    @Test
    void unknownKeyInDefaultsFailsTheStartNamingTheKey() {
        this.contextRunner.withPropertyValues("resilience.retry.defaults.max-attempt=2")
            .run((context) -> assertThat(context).getFailure()
                .rootCause()
                .hasMessageContaining("resilience.retry.defaults.max-attempt"));
    }

    @Test
    void unknownKeyInAnInstanceFailsTheStartNamingTheKey() {
        this.contextRunner.withPropertyValues("resilience.circuit-breaker.instances.payment-gateway.minimum-call=2")
            .run((context) -> assertThat(context).getFailure()
                .rootCause()
                .hasMessageContaining("resilience.circuit-breaker.instances.payment-gateway.minimum-call"));
    }

    @Test
    void unknownKeyInTheBulkheadDefaultsFailsTheStartNamingTheKey() {
        this.contextRunner.withPropertyValues("resilience.bulkhead.defaults.max-calls=2")
            .run((context) -> assertThat(context).getFailure()
                .rootCause()
                .hasMessageContaining("resilience.bulkhead.defaults.max-calls"));
    }

    @Test
    void unknownKeyInARateLimiterInstanceFailsTheStartNamingTheKey() {
        this.contextRunner.withPropertyValues("resilience.rate-limiter.instances.quotes.limit-for-period=2")
            .run((context) -> assertThat(context).getFailure()
                .rootCause()
                .hasMessageContaining("resilience.rate-limiter.instances.quotes.limit-for-period"));
    }

    @Test
    void bulkheadTypeThatIsNotATypeFailsTheStartNamingTheProperty() {
        this.contextRunner.withPropertyValues("resilience.bulkhead.defaults.type=elastic")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Property: resilience.bulkhead.defaults.type")
                .contains("FIXED", "ADAPTIVE"));
    }

    @Test
    void exceptionClassThatDoesNotExistFailsTheStartNamingTheProperty() {
        this.contextRunner.withPropertyValues("resilience.retry.instances.payment.retry-on=com.example.NoSuchException")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Property: resilience.retry.instances.payment.retry-on")
                .contains("com.example.NoSuchException"));
    }

    @Test
    void jitterThatIsNotAModeFailsTheStartNamingTheProperty() {
        this.contextRunner.withPropertyValues("resilience.retry.defaults.jitter=wild")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Property: resilience.retry.defaults.jitter")
                .contains("NONE", "FULL", "EQUAL", "DECORRELATED"));
    }

}
