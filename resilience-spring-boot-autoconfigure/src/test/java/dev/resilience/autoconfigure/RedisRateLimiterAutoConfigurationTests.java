package dev.resilience.autoconfigure;

import java.time.Duration;

import dev.resilience.annotation.RateLimited;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterStore;
import dev.resilience.core.ratelimiter.SharedPermits;
import dev.resilience.redis.RedisRateLimiterStore;
import dev.resilience.redis.RedisServer;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code store: redis} for rate limiters: chosen per instance, by the annotation or in
 * the defaults, with the precedence of every other setting; the store on the
 * application's Redis under an application-scoped prefix; the start failures that name
 * what is missing or wrong; the stores' report; and the check of Redis's eviction policy.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisRateLimiterAutoConfigurationTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @RegisterExtension
    static final RedisServer evicting = new RedisServer("--maxmemory-policy", "volatile-lru");

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                        DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
        .withPropertyValues(redis.springProperties().toArray(String[]::new))
        .withBean(Quotes.class);

    private final ApplicationContextRunner withoutRedis = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class))
        .withBean(Quotes.class);

    @Test
    void redisInTheDefaultsSharesEveryRateLimiterUnderThePrefixOfTheApplication() {
        this.contextRunner
            .withPropertyValues("spring.application.name=shop", "resilience.rate-limiter.defaults.store=redis",
                    "resilience.rate-limiter.instances.quotes.period=1h")
            .run((context) -> {
                context.getBean(Quotes.class).quote("EUR");

                assertThat(store(context, "quotes")).isEqualTo("redis");
                assertThat(store(context, "patient")).isEqualTo("redis");
                assertThat(context.getBean(RedisRateLimiterStore.class).keyPrefix()).isEqualTo("shop:ratelimit:");
                assertThat(redis.template().hasKey("shop:ratelimit:{quotes}")).isTrue();
            });
    }

    @Test
    void theAnnotationChoosesRedisForItsLimiterOnlyAndWithoutANameThePrefixIsRatelimit() {
        this.contextRunner.withPropertyValues("resilience.rate-limiter.instances.patient.period=1h").run((context) -> {
            context.getBean(Quotes.class).patientQuote("EUR");

            assertThat(store(context, "patient")).isEqualTo("redis");
            assertThat(store(context, "quotes")).isEqualTo("memory");
            assertThat(redis.template().keys("*")).containsExactly("ratelimit:{patient}");
        });
    }

    @Test
    void theInstancePropertyOverridesTheAnnotationAndThePrefixIsAProperty() {
        this.contextRunner
            .withPropertyValues("resilience.rate-limiter.instances.patient.store=memory",
                    "resilience.rate-limiter.instances.quotes.store=redis",
                    "resilience.rate-limiter.instances.quotes.period=1h",
                    "resilience.rate-limiter.redis.key-prefix=quotas:")
            .run((context) -> {
                context.getBean(Quotes.class).quote("EUR");

                assertThat(store(context, "patient")).isEqualTo("memory");
                assertThat(store(context, "quotes")).isEqualTo("redis");
                assertThat(redis.template().keys("*")).containsExactly("quotas:{quotes}");
            });
    }

    @Test
    void aStoreOfTheApplicationReplacesTheRedisOne() {
        RateLimiterStore own = (name, config) -> new OwnPermits();
        this.contextRunner.withBean(RateLimiterStore.class, () -> own).run((context) -> {
            assertThat(context).doesNotHaveBean(RedisRateLimiterStore.class);
            assertThat(store(context, "patient")).isEqualTo("own");
        });
    }

    @Test
    void withoutAConnectionFactoryTheStartFailsNamingTheLimiterThePropertyAndTheFix() {
        this.withoutRedis.withPropertyValues("resilience.rate-limiter.instances.quotes.store=redis")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("rate limiter 'quotes'")
                .contains("Setting: resilience.rate-limiter.instances.quotes.store")
                .contains("the application has no RedisConnectionFactory to share the limit through")
                .contains("Action: Point Spring Boot at a Redis (spring.data.redis.host and spring.data.redis.port) "
                        + "or define a RedisConnectionFactory bean, or use store: memory"));
    }

    @Test
    void anAnnotationChoosingRedisWithoutAConnectionFactoryFailsTheStartNamingTheAttribute() {
        this.withoutRedis.run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
            .contains("rate limiter 'patient'")
            .contains("Setting: @RateLimited(store)")
            .contains("no RedisConnectionFactory"));
    }

    @Test
    void withoutSpringDataRedisTheStartFailsSayingSo() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
            .withClassLoader(new FilteredClassLoader("org.springframework.data.redis."))
            .withPropertyValues("resilience.rate-limiter.instances.quotes.store=redis")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Reason: Spring Data Redis is not on the classpath")
                .contains("Action: Add spring-boot-starter-data-redis to the application's dependencies"));
    }

    @Test
    void anUnknownOnStoreErrorFailsTheStartNamingTheProperty() {
        this.contextRunner.withPropertyValues("resilience.rate-limiter.redis.on-store-error=retry")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("resilience.rate-limiter.redis.on-store-error")
                .contains("retry"));
    }

    @Test
    void aStoreTimeoutThatIsNotPositiveFailsTheStart() {
        this.contextRunner.withPropertyValues("resilience.rate-limiter.redis.store-timeout=0s")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Property: resilience.rate-limiter.redis.store-timeout")
                .contains("Reason: must be positive"));
    }

    @Test
    void aRateRedisCannotCountFailsTheStartNamingTheLimiter() {
        this.contextRunner
            .withPropertyValues("resilience.rate-limiter.instances.quotes.store=redis",
                    "resilience.rate-limiter.instances.quotes.limit=2000",
                    "resilience.rate-limiter.instances.quotes.period=1ms")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("rate limiter 'quotes'")
                .contains("a rate limiter in Redis counts in microseconds: period / limit must be at least 1us, so at "
                        + "most 1000 calls per 1ms, not 2000")
                .contains("store: memory, which counts in nanoseconds"));
    }

    @Test
    void theStoresReportNamesTheRateLimitersInRedis(CapturedOutput output) {
        this.contextRunner
            .withPropertyValues("spring.application.name=shop", "resilience.rate-limiter.instances.quotes.store=redis",
                    "resilience.rate-limiter.redis.on-store-error=reject")
            .run((context) -> assertThat(output.getOut()).containsOnlyOnce(
                    " Rate limiters in Redis (RedisRateLimiterStore, key prefix 'shop:ratelimit:', on store error "
                            + "reject): patient, quotes."));
    }

    @Test
    void anEvictingRedisIsWarnedOfAfterTheFirstPermitWhenOnlyRateLimitersUseIt(CapturedOutput output) {
        this.contextRunner.withPropertyValues("spring.data.redis.port=" + evicting.port()).run((context) -> {
            assertThat(output.getOut()).doesNotContain("maxmemory-policy 'volatile-lru'");

            context.getBean(Quotes.class).patientQuote("EUR");

            await().atMost(Duration.ofSeconds(10))
                .until(() -> output.getOut()
                    .contains("maxmemory-policy 'volatile-lru' may evict the resilience " + "stores' keys")
                        && output.getOut().contains("an evicted rate limiter admits a full burst"));
        });
    }

    private static String store(ApplicationContext context, String name) {
        RateLimiter limiter = context.getBean(ResilienceRegistry.class).findRateLimiter(name).orElseThrow();
        SharedPermits shared = limiter.sharedPermits();
        return (shared != null) ? shared.store() : "memory";
    }

    static class Quotes {

        @RateLimited(name = "quotes", limit = 5, period = "1s")
        public String quote(String currency) {
            return "quote " + currency;
        }

        @RateLimited(name = "patient", limit = 1, period = "1s", timeout = "2s", store = "redis")
        public String patientQuote(String currency) {
            return "patient " + currency;
        }

    }

    static final class OwnPermits implements SharedPermits {

        @Override
        public long take(long now, long maxWaitNanos) {
            return 0;
        }

        @Override
        public boolean giveBack(long now, long waitNanos) {
            return false;
        }

        @Override
        public int availablePermits(long now) {
            return -1;
        }

        @Override
        public String store() {
            return "own";
        }

        @Override
        public long storeErrors() {
            return 0;
        }

    }

}
