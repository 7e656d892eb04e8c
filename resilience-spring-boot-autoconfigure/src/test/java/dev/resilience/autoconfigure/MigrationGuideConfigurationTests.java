package dev.resilience.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.SlidingWindowType;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.registry.ResilienceRegistry;
import io.github.resilience4j.common.CompositeCustomizer;
import io.github.resilience4j.common.bulkhead.configuration.BulkheadConfigCustomizer;
import io.github.resilience4j.common.bulkhead.configuration.CommonBulkheadConfigurationProperties;
import io.github.resilience4j.common.circuitbreaker.configuration.CircuitBreakerConfigCustomizer;
import io.github.resilience4j.common.circuitbreaker.configuration.CommonCircuitBreakerConfigurationProperties;
import io.github.resilience4j.common.ratelimiter.configuration.CommonRateLimiterConfigurationProperties;
import io.github.resilience4j.common.ratelimiter.configuration.RateLimiterConfigCustomizer;
import io.github.resilience4j.common.retry.configuration.CommonRetryConfigurationProperties;
import io.github.resilience4j.common.retry.configuration.RetryConfigCustomizer;
import io.github.resilience4j.common.timelimiter.configuration.CommonTimeLimiterConfigurationProperties;
import io.github.resilience4j.common.timelimiter.configuration.TimeLimiterConfigCustomizer;
import io.github.resilience4j.core.functions.Either;
import io.github.resilience4j.retry.RetryConfig;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configurations of {@code docs/migrating-from-resilience4j.md}: the guide shows each
 * file verbatim, the converted files bind to the settings the guide names, and the
 * converted Resilience4j configuration gives the settings Resilience4j itself reads from
 * the original.
 */
class MigrationGuideConfigurationTests {

    private static final Path GUIDE = Path.of("..", "docs", "migrating-from-resilience4j.md");

    private static final String RESILIENCE4J = "migration/resilience4j-application.yml";

    private static final String CONVERTED = "migration/resilience-application.yml";

    private static final String SPRING_CONVERTED = "migration/spring-resilient-methods-application.yml";

    private static final List<Throwable> ERRORS = List.of(new IOException("reset"), new TimeoutException("slow"),
            new ResourceAccessException("refused"),
            HttpServerErrorException.create(HttpStatus.BAD_GATEWAY, "", null, null, null),
            HttpClientErrorException.create(HttpStatus.NOT_FOUND, "", null, null, null),
            new IllegalStateException("bug"));

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withPropertyValues(FingerprintSecret.PROPERTY)
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class));

    @Test
    void theGuideShowsEachConfigurationFileVerbatim() throws IOException {
        String guide = Files.readString(GUIDE, StandardCharsets.UTF_8);
        for (String file : List.of(RESILIENCE4J, CONVERTED, SPRING_CONVERTED)) {
            assertThat(guide).as(file).contains("```yaml\n" + read(file) + "```\n");
        }
    }

    @Test
    void convertedCircuitBreakersHoldTheSettingsResilience4jReadsFromTheOriginal() {
        CommonCircuitBreakerConfigurationProperties original = bind(RESILIENCE4J, "resilience4j.circuitbreaker",
                CommonCircuitBreakerConfigurationProperties.class);
        this.contextRunner.withInitializer(yaml(CONVERTED)).run((context) -> {
            ResilienceRegistry registry = context.getBean(ResilienceRegistry.class);
            for (String name : List.of("paymentGateway", "inventory")) {
                io.github.resilience4j.circuitbreaker.CircuitBreakerConfig theirs = original.createCircuitBreakerConfig(
                        name, original.getInstances().get(name),
                        new CompositeCustomizer<CircuitBreakerConfigCustomizer>(List.of()));
                CircuitBreakerConfig ours = registry.circuitBreakers().get(name).config();
                assertThat(ours.slidingWindowType().name()).as(name)
                    .isEqualTo(theirs.getSlidingWindowType().name().replace("_BASED", ""));
                assertThat(ours.slidingWindowSize()).as(name).isEqualTo(theirs.getSlidingWindowSize());
                assertThat(ours.minimumCalls()).as(name).isEqualTo(theirs.getMinimumNumberOfCalls());
                assertThat(ours.failureRateThreshold()).as(name).isEqualTo(theirs.getFailureRateThreshold());
                assertThat(ours.slowCallDuration()).as(name).isEqualTo(theirs.getSlowCallDurationThreshold());
                assertThat(ours.slowCallRateThreshold()).as(name).isEqualTo(theirs.getSlowCallRateThreshold());
                assertThat(ours.waitInOpen().toMillis()).as(name)
                    .isEqualTo(theirs.getWaitIntervalFunctionInOpenState().apply(1));
                assertThat(ours.halfOpenCalls()).as(name).isEqualTo(theirs.getPermittedNumberOfCallsInHalfOpenState());
                assertThat(ours.automaticTransitionToHalfOpen()).as(name)
                    .isEqualTo(theirs.isAutomaticTransitionFromOpenToHalfOpenEnabled());
                for (Throwable error : ERRORS) {
                    boolean ignored = theirs.getIgnoreExceptionPredicate().test(error);
                    assertThat(ours.isIgnored(error)).as(name + " ignores " + error).isEqualTo(ignored);
                    assertThat(ours.isRecordedAsFailure(error)).as(name + " records " + error)
                        .isEqualTo(!ignored && theirs.getRecordExceptionPredicate().test(error));
                }
            }
            CircuitBreakerConfig paymentGateway = registry.circuitBreakers().get("paymentGateway").config();
            assertThat(paymentGateway.slidingWindowType()).isEqualTo(SlidingWindowType.TIME);
            assertThat(paymentGateway.minimumCalls()).isEqualTo(10);
            assertThat(paymentGateway.maxWaitInHalfOpen()).isEqualTo(Duration.ofSeconds(20));
            assertThat(original
                .createCircuitBreakerConfig("paymentGateway", original.getInstances().get("paymentGateway"),
                        new CompositeCustomizer<CircuitBreakerConfigCustomizer>(List.of()))
                .getMaxWaitDurationInHalfOpenState()).isEqualTo(Duration.ofSeconds(20));
            CircuitBreakerConfig inventory = registry.circuitBreakers().get("inventory").config();
            assertThat(inventory.failureRateThreshold()).isEqualTo(30f);
            assertThat(inventory.slidingWindowSize()).isEqualTo(50);
        });
    }

    @Test
    void convertedRetriesMakeTheAttemptsAndWaitsResilience4jMakesFromTheOriginal() {
        CommonRetryConfigurationProperties original = bind(RESILIENCE4J, "resilience4j.retry",
                CommonRetryConfigurationProperties.class);
        this.contextRunner.withInitializer(yaml(CONVERTED)).run((context) -> {
            ResilienceRegistry registry = context.getBean(ResilienceRegistry.class);
            for (String name : List.of("payment", "inventory")) {
                RetryConfig theirs = original.createRetryConfig(name,
                        new CompositeCustomizer<RetryConfigCustomizer>(List.of()));
                RetryPolicy ours = registry.retryPolicies().get(name);
                assertThat(ours.maxAttempts()).as(name).isEqualTo(theirs.getMaxAttempts());
                assertThat(ours.backoff().jitter()).as(name).isEqualTo(Jitter.NONE);
                for (int retry = 1; retry < theirs.getMaxAttempts(); retry++) {
                    long wait = theirs.<Object>getIntervalBiFunction().apply(retry, Either.left(new IOException()));
                    assertThat(ours.backoff().baseDelay(retry).toMillis()).as(name + " wait " + retry).isEqualTo(wait);
                }
                for (Throwable error : ERRORS) {
                    assertThat(ours.isRetryable(error)).as(name + " retries " + error)
                        .isEqualTo(theirs.getExceptionPredicate().test(error));
                }
                assertThat(ours.budget()).as(name).isNotNull();
            }
            assertThat(registry.retryPolicies().get("payment").backoff().baseDelay(3))
                .isEqualTo(Duration.ofMillis(2000));
            assertThat(registry.retryPolicies().get("inventory").backoff().baseDelay(1))
                .isEqualTo(Duration.ofMillis(100));
        });
    }

    @Test
    void convertedBulkheadRateLimiterAndTimeLimiterHoldTheOriginalsLimits() {
        CommonBulkheadConfigurationProperties bulkheads = bind(RESILIENCE4J, "resilience4j.bulkhead",
                CommonBulkheadConfigurationProperties.class);
        CommonRateLimiterConfigurationProperties rateLimiters = bind(RESILIENCE4J, "resilience4j.ratelimiter",
                CommonRateLimiterConfigurationProperties.class);
        CommonTimeLimiterConfigurationProperties timeLimiters = bind(RESILIENCE4J, "resilience4j.timelimiter",
                CommonTimeLimiterConfigurationProperties.class);
        this.contextRunner.withInitializer(yaml(CONVERTED)).run((context) -> {
            ResilienceRegistry registry = context.getBean(ResilienceRegistry.class);
            io.github.resilience4j.bulkhead.BulkheadConfig bulkhead = bulkheads.createBulkheadConfig(
                    bulkheads.getInstances().get("inventory"),
                    new CompositeCustomizer<BulkheadConfigCustomizer>(List.of()), "inventory");
            BulkheadConfig inventory = registry.bulkheads().get("inventory").config();
            assertThat(inventory.maxConcurrentCalls()).isEqualTo(bulkhead.getMaxConcurrentCalls()).isEqualTo(10);
            assertThat(inventory.maxWait()).isEqualTo(bulkhead.getMaxWaitDuration()).isEqualTo(Duration.ofMillis(50));
            io.github.resilience4j.ratelimiter.RateLimiterConfig rateLimiter = rateLimiters
                .createRateLimiterConfig("partnerApi", new CompositeCustomizer<RateLimiterConfigCustomizer>(List.of()));
            RateLimiterConfig partnerApi = registry.rateLimiters().get("partnerApi").config();
            assertThat(partnerApi.limit()).isEqualTo(rateLimiter.getLimitForPeriod()).isEqualTo(20);
            assertThat(partnerApi.period()).isEqualTo(rateLimiter.getLimitRefreshPeriod())
                .isEqualTo(Duration.ofSeconds(1));
            assertThat(partnerApi.timeout()).isEqualTo(rateLimiter.getTimeoutDuration()).isEqualTo(Duration.ZERO);
            assertThat(registry.timeLimit("recommendations", null))
                .isEqualTo(timeLimiters
                    .createTimeLimiterConfig("recommendations", timeLimiters.getInstances().get("recommendations"),
                            new CompositeCustomizer<TimeLimiterConfigCustomizer>(List.of()))
                    .getTimeoutDuration())
                .isEqualTo(Duration.ofMillis(800));
        });
    }

    @Test
    void convertedSpringResilientMethodsBindToTheSettingsTheGuideNames() {
        this.contextRunner.withInitializer(yaml(SPRING_CONVERTED)).run((context) -> {
            ResilienceRegistry registry = context.getBean(ResilienceRegistry.class);
            RetryPolicy stock = registry.retryPolicies().get("stock");
            assertThat(stock.maxAttempts()).isEqualTo(5);
            assertThat(stock.backoff().delay()).isEqualTo(Duration.ofMillis(100));
            assertThat(stock.backoff().multiplier()).isEqualTo(2.0);
            assertThat(stock.backoff().maxDelay()).isEqualTo(Duration.ofSeconds(1));
            assertThat(stock.backoff().jitter()).isEqualTo(Jitter.EQUAL);
            assertThat(stock.retryOn()).containsExactly(IOException.class, ResourceAccessException.class);
            assertThat(stock.maxDuration()).isEqualTo(Duration.ofSeconds(5));
            assertThat(stock.isRetryable(new ResourceAccessException("refused"))).isTrue();
            assertThat(stock.isRetryable(new IllegalStateException("bug"))).isFalse();
            BulkheadConfig reports = registry.bulkheads().get("reports").config();
            assertThat(reports.maxConcurrentCalls()).isEqualTo(4);
            assertThat(reports.maxWait()).isEqualTo(Duration.ofHours(1));
        });
    }

    private static String read(String file) {
        try {
            return new ClassPathResource(file).getContentAsString(StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static List<PropertySource<?>> load(String file) {
        try {
            return new YamlPropertySourceLoader().load(file, new ClassPathResource(file));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static <T> T bind(String file, String prefix, Class<T> type) {
        return new Binder(ConfigurationPropertySources.from(load(file))).bind(prefix, type).get();
    }

    private static ApplicationContextInitializer<ConfigurableApplicationContext> yaml(String file) {
        return (context) -> load(file).forEach(context.getEnvironment().getPropertySources()::addFirst);
    }

}
