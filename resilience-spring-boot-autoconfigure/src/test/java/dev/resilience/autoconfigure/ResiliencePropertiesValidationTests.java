package dev.resilience.autoconfigure;

import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.Durations;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class ResiliencePropertiesValidationTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withUserConfiguration(PropertiesConfiguration.class);

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|',
            textBlock = """
                    retry.defaults.max-attempts                           | 0       | must be >= 1 (all attempts, the first included)
                    retry.defaults.delay                                  | -1s     | must be >= 0
                    retry.defaults.multiplier                             | 0.5     | must be a finite number >= 1.0
                    retry.defaults.attempt-timeout                        | 0s      | must be positive
                    retry.defaults.max-duration                           | -5s     | must be positive
                    retry.defaults.budget.ratio                           | 1001    | must be between 0 and 1000
                    retry.defaults.budget.ratio                           | -0.1    | must be between 0 and 1000
                    retry.defaults.budget.min-retries-per-second          | -1      | must be >= 0
                    retry.defaults.budget.window                          | 500ms   | must be between 1s and 1h
                    retry.defaults.budget.window                          | 2h      | must be between 1s and 1h
                    retry.instances[payment].max-attempts                 | -3      | must be >= 1 (all attempts, the first included)
                    retry.instances[payment].multiplier                   | 0.9     | must be a finite number >= 1.0
                    circuit-breaker.defaults.sliding-window-size          | 0       | must be between 1 and 1000000 calls for a count window
                    circuit-breaker.defaults.sliding-window-size          | 1000001 | must be between 1 and 1000000 calls for a count window
                    circuit-breaker.defaults.minimum-calls                | 0       | must be >= 1
                    circuit-breaker.defaults.failure-rate-threshold       | 0       | must be in (0, 100]
                    circuit-breaker.defaults.failure-rate-threshold       | 100.5   | must be in (0, 100]
                    circuit-breaker.defaults.slow-call-rate-threshold     | -1      | must be in (0, 100]
                    circuit-breaker.defaults.slow-call-duration           | 0ms     | must be positive
                    circuit-breaker.defaults.wait-in-open                 | -1s     | must be positive
                    circuit-breaker.defaults.half-open-calls              | 0       | must be between 1 and 1000000
                    circuit-breaker.instances[payment-gateway].half-open-calls | 0  | must be between 1 and 1000000
                    circuit-breaker.defaults.max-wait-in-half-open        | 0s      | must be positive
                    circuit-breaker.instances[payment-gateway].max-wait-in-half-open | -1s | must be positive
                    bulkhead.defaults.max-concurrent-calls                | 0       | must be between 1 and 100000
                    bulkhead.instances[inventory].max-concurrent-calls    | 100001  | must be between 1 and 100000
                    bulkhead.defaults.max-wait                            | -1s     | must be between 0 and 1h
                    bulkhead.instances[inventory].max-wait                | 61m     | must be between 0 and 1h
                    bulkhead.defaults.min-limit                           | 0       | must be between 1 and 100000
                    bulkhead.instances[inventory].max-limit               | 0       | must be between 1 and 100000
                    bulkhead.defaults.latency-threshold                   | 0s      | must be positive and at most 1h
                    bulkhead.instances[inventory].latency-threshold       | 2h      | must be positive and at most 1h
                    rate-limiter.defaults.limit                           | 0       | must be between 1 and 1000000
                    rate-limiter.instances[quotes].limit                  | 1000001 | must be between 1 and 1000000
                    rate-limiter.defaults.period                          | 0s      | must be between 1ms and 1d
                    rate-limiter.instances[quotes].period                 | 2d      | must be between 1ms and 1d
                    rate-limiter.defaults.timeout                         | -1s     | must be between 0 and 1h
                    rate-limiter.redis.store-timeout                      | 0ms     | must be positive
                    rate-limiter.redis.key-prefix                         | ' '     | must not be blank (unset it for the default)
                    idempotency.ttl                                       | 0s      | must be positive
                    idempotency.in-progress-ttl                           | -1s     | must be positive
                    idempotency.max-entries                               | 0       | must be >= 1
                    idempotency.store-timeout                             | 0s      | must be positive
                    dead-letter.capacity                                  | 0       | must be >= 1
                    http-client.max-hosts                                 | 0       | must be >= 1
                    http-client.max-retry-after                           | -1s     | must be >= 0
                    dead-letter.store-timeout                             | -1s     | must be positive
                    dead-letter.max-argument-size                         | 10B     | must be between 64B and 2147483647B
                    dead-letter.max-argument-size                         | 4GB     | must be between 64B and 2147483647B
                    dead-letter.ttl                                       | 0s      | must be positive
                    dead-letter.key-prefix                                | ' '     | must not be blank (unset it for the default)
                    idempotency.max-result-size                           | 0B      | must be positive
                    idempotency.allowed-types[0]                          | com.example.-evil | must be a class name (com.example.Receipt) or a package name (com.example.orders)
                    """)
    void outOfRangeValueFailsTheStartNamingThePropertyAndTheValidRange(String property, String value, String reason) {
        this.contextRunner.withPropertyValues("resilience." + property + "=" + value)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Property: resilience." + property)
                .contains("Reason: " + reason));
    }

    @Test
    void maxDelayBelowTheDelayOfTheSameGroupFailsTheStart() {
        this.contextRunner
            .withPropertyValues("resilience.retry.instances.payment.delay=2s",
                    "resilience.retry.instances.payment.max-delay=1s")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Property: resilience.retry.instances[payment].max-delay")
                .contains("Reason: must be >= delay (2s)"));
    }

    @Test
    void outOfRangeValueOfAnInstanceNamedAfterItsMethodNamesTheInstance() {
        this.contextRunner.withPropertyValues("resilience.retry.instances[PaymentService#pay].max-attempts=0")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Property: resilience.retry.instances[PaymentService#pay].max-attempts")
                .contains("Reason: must be >= 1"));
    }

    @Test
    void timeWindowLongerThanAnHourFailsTheStartEvenWhenTheInstanceInheritsTheType() {
        this.contextRunner
            .withPropertyValues("resilience.circuit-breaker.defaults.sliding-window-type=time",
                    "resilience.circuit-breaker.instances.prices.sliding-window-size=3601")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Property: resilience.circuit-breaker.instances[prices].sliding-window-size")
                .contains("Reason: must be between 1 and 3600 seconds for a time window"));
    }

    @Test
    void exceptionListEntryThatIsNotAThrowableFailsTheStartNamingTheEntry() {
        this.contextRunner.withPropertyValues("resilience.circuit-breaker.defaults.ignore-on=java.lang.String")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Property: resilience.circuit-breaker.defaults.ignore-on[0]")
                .contains("Reason: must be a subclass of java.lang.Throwable"));
    }

    @Test
    void bulkheadMaxLimitBelowItsMinLimitFailsTheStart() {
        this.contextRunner
            .withPropertyValues("resilience.bulkhead.instances.inventory.min-limit=10",
                    "resilience.bulkhead.instances.inventory.max-limit=5")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Property: resilience.bulkhead.instances[inventory].max-limit")
                .contains("Reason: must be >= min-limit (10)"));
    }

    @Test
    void everyOutOfRangeValueIsReportedAtOnce() {
        this.contextRunner
            .withPropertyValues("resilience.retry.defaults.max-attempts=0", "resilience.dead-letter.capacity=0")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Property: resilience.retry.defaults.max-attempts")
                .contains("Property: resilience.dead-letter.capacity"));
    }

    @Test
    void valuesAtTheEdgesOfTheirRangesAreAccepted() {
        this.contextRunner
            .withPropertyValues("resilience.retry.defaults.max-attempts=1", "resilience.retry.defaults.multiplier=1.0",
                    "resilience.retry.defaults.delay=0ms", "resilience.retry.defaults.max-delay=0ms",
                    "resilience.retry.defaults.budget.ratio=0", "resilience.retry.defaults.budget.window=1h",
                    "resilience.circuit-breaker.defaults.failure-rate-threshold=100",
                    "resilience.circuit-breaker.defaults.sliding-window-size=1000000")
            .run((context) -> assertThat(context).hasNotFailed());
    }

    @Test
    void valuesAtTheCoreBuildersLimitsAreAcceptedAndBuildPolicies() {
        this.contextRunner
            .withPropertyValues("resilience.retry.defaults.max-attempts=" + RetryPolicy.MIN_MAX_ATTEMPTS,
                    "resilience.retry.defaults.multiplier=" + Backoff.MIN_MULTIPLIER,
                    "resilience.retry.defaults.budget.ratio=" + RetryBudget.MAX_RATIO,
                    "resilience.retry.defaults.budget.window=" + Durations.format(RetryBudget.MAX_WINDOW),
                    "resilience.retry.instances.short.budget.window=" + Durations.format(RetryBudget.MIN_WINDOW),
                    "resilience.circuit-breaker.defaults.sliding-window-size="
                            + CircuitBreakerConfig.MAX_COUNT_WINDOW_SIZE,
                    "resilience.circuit-breaker.defaults.half-open-calls=" + CircuitBreakerConfig.MAX_HALF_OPEN_CALLS,
                    "resilience.circuit-breaker.defaults.failure-rate-threshold="
                            + CircuitBreakerConfig.MAX_RATE_THRESHOLD,
                    "resilience.circuit-breaker.defaults.slow-call-rate-threshold="
                            + CircuitBreakerConfig.MAX_RATE_THRESHOLD,
                    "resilience.circuit-breaker.instances.prices.sliding-window-type=time",
                    "resilience.circuit-breaker.instances.prices.sliding-window-size="
                            + CircuitBreakerConfig.MAX_TIME_WINDOW_SECONDS)
            .run((context) -> {
                assertThat(context).hasNotFailed();
                ResilienceProperties properties = context.getBean(ResilienceProperties.class);
                RetryPolicyResolver retries = new RetryPolicyResolver(properties, new VirtualTimeSource());
                assertThat(retries.resolve("payment", null).budget().window()).isEqualTo(RetryBudget.MAX_WINDOW);
                assertThat(retries.resolve("short", null).budget().window()).isEqualTo(RetryBudget.MIN_WINDOW);
                CircuitBreakerConfigResolver breakers = new CircuitBreakerConfigResolver(properties);
                assertThat(breakers.resolve("payment-gateway", null).halfOpenCalls())
                    .isEqualTo(CircuitBreakerConfig.MAX_HALF_OPEN_CALLS);
                assertThat(breakers.resolve("prices", null).slidingWindowSize())
                    .isEqualTo(CircuitBreakerConfig.MAX_TIME_WINDOW_SECONDS);
            });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            retry.defaults.budget.ratio                  | must be between 0 and
            circuit-breaker.defaults.sliding-window-size | must be between 1 and
            circuit-breaker.defaults.half-open-calls     | must be between 1 and
            circuit-breaker.defaults.failure-rate-threshold | must be in (0,
            """)
    void valueJustBeyondTheCoreLimitFailsTheStartNamingTheLimit(String property, String reason) {
        int limit = switch (property) {
            case "retry.defaults.budget.ratio" -> RetryBudget.MAX_RATIO;
            case "circuit-breaker.defaults.sliding-window-size" -> CircuitBreakerConfig.MAX_COUNT_WINDOW_SIZE;
            case "circuit-breaker.defaults.half-open-calls" -> CircuitBreakerConfig.MAX_HALF_OPEN_CALLS;
            default -> CircuitBreakerConfig.MAX_RATE_THRESHOLD;
        };
        this.contextRunner.withPropertyValues("resilience." + property + "=" + (limit + 1))
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Property: resilience." + property)
                .contains("Reason: " + reason)
                .contains(String.valueOf(limit)));
    }

}
