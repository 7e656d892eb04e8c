package dev.resilience.redis;

import java.time.Duration;
import java.time.Instant;

import dev.resilience.aop.LastGoodQuotes;
import dev.resilience.aop.LastGoodQuotes.Quote;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceMetricsAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.lastgood.LastGoodStore;
import dev.resilience.core.time.VirtualTimeSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @Fallback(lastGood)} with {@code resilience.fallback.last-good.store=redis},
 * through the proxy and a real {@code redis-server}: values are kept as JSON under the
 * application's prefix, expiring with {@code lastGood}, shared by every instance; a Redis
 * that is down never changes a call's outcome.
 */
class RedisLastGoodStoreTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ResilienceAutoConfiguration.class,
                ResilienceRedisAutoConfiguration.class, ResilienceMetricsAutoConfiguration.class,
                DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
        .withPropertyValues(FingerprintSecret.PROPERTY, "resilience.fallback.last-good.store=redis",
                "resilience.fallback.last-good.store-timeout=300ms", "spring.application.name=quotes")
        .withPropertyValues(redis.springProperties().toArray(String[]::new))
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean(VirtualTimeSource.class)
        .withBean(LastGoodQuotes.class);

    @Test
    void failedCallIsServedTheValueKeptInRedisWithTheTimeItWasStored() {
        this.contextRunner.run((context) -> {
            assertThat(context.getBean(LastGoodStore.class)).isInstanceOf(RedisLastGoodStore.class);
            LastGoodQuotes quotes = context.getBean(LastGoodQuotes.class);
            VirtualTimeSource time = context.getBean(VirtualTimeSource.class);
            Instant storedAt = time.now();
            quotes.quote("ETH");
            time.advance(Duration.ofMinutes(5));
            quotes.down(true);

            ExecutionResult<Quote> served = quotes.quote("ETH");
            ExecutionResult<Quote> other = quotes.quote("BTC");

            assertThat(served.value()).isEqualTo(new Quote("ETH", 1));
            assertThat(served.fallbackUsed()).isTrue();
            assertThat(served.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "lastGood")
                .containsEntry(ExecutionResult.STALE_SINCE, storedAt);
            assertThat(other.status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(fallbacks(context, "LastGoodQuotes#quote")).isOne();
        });
    }

    @Test
    void valueIsJsonUnderTheApplicationsPrefixAndExpiresWithLastGood() {
        this.contextRunner.run((context) -> {
            context.getBean(LastGoodQuotes.class).quote("ETH");

            assertThat(redis.template().keys("quotes:lastgood:*")).singleElement().satisfies((key) -> {
                assertThat(key).startsWith("quotes:lastgood::LastGoodQuotes#quote:");
                assertThat(redis.template().opsForValue().get(key)).endsWith("{\"symbol\":\"ETH\",\"version\":1}")
                    .contains(Quote.class.getName());
                assertThat(redis.template().getExpire(key)).isBetween(3590L, 3600L);
            });
        });
    }

    @Test
    void oneInstanceServesTheValueAnotherStored() {
        this.contextRunner.run((storing) -> {
            storing.getBean(LastGoodQuotes.class).quote("ETH");
            this.contextRunner.run((serving) -> {
                LastGoodQuotes quotes = serving.getBean(LastGoodQuotes.class);
                quotes.down(true);

                ExecutionResult<Quote> served = quotes.quote("ETH");

                assertThat(served.value()).isEqualTo(new Quote("ETH", 1));
                assertThat(served.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "lastGood");
                assertThat(fallbacks(serving, "LastGoodQuotes#quote")).isOne();
            });
        });
    }

    @Test
    void redisDownChangesNoCallsOutcome() {
        this.contextRunner.run((context) -> {
            LastGoodQuotes quotes = context.getBean(LastGoodQuotes.class);
            quotes.quote("ETH");
            redis.stop();

            ExecutionResult<Quote> succeeded = quotes.quoteOrDefault("ETH");
            quotes.down(true);
            ExecutionResult<Quote> failed = quotes.quote("ETH");
            ExecutionResult<Quote> fallback = quotes.quoteOrDefault("ETH");

            assertThat(succeeded.status()).isEqualTo(ExecutionStatus.SUCCESS);
            assertThat(succeeded.value()).isEqualTo(new Quote("ETH", 2));
            assertThat(succeeded.fallbackUsed()).isFalse();
            assertThat(failed.status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(failed.error()).isInstanceOf(IllegalStateException.class).hasMessage("quotes are down");
            assertThat(fallback.value()).isEqualTo(new Quote("ETH", -1));
            assertThat(fallback.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "defaultQuote");
            assertThat(fallbacks(context, "LastGoodQuotes#quote")).isZero();
        });
    }

    @Test
    void redisStoreWithoutAFingerprintSecretFailsTheStartSayingHowToSetIt() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ResilienceAutoConfiguration.class,
                    ResilienceRedisAutoConfiguration.class, DataRedisAutoConfiguration.class,
                    JacksonAutoConfiguration.class))
            .withPropertyValues("resilience.fallback.last-good.store=redis")
            .withPropertyValues(redis.springProperties().toArray(String[]::new))
            .withBean(LastGoodQuotes.class)
            .run((context) -> {
                assertThat(context).hasFailed();
                assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                    .contains("resilience.idempotency.fingerprint-secret", "last good value store");
            });
    }

    private static double fallbacks(AssertableApplicationContext context, String name) {
        return context.getBean(MeterRegistry.class)
            .get("resilience.fallbacks")
            .tags("name", name, "fallback", "lastGood", "outcome", "success")
            .functionCounter()
            .count();
    }

}
