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
import static org.awaitility.Awaitility.await;

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
            awaitKept(1);
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
            awaitKept(1);

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
            awaitKept(1);
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
            awaitKept(1);
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

    @Test
    void redisThatDoesNotAnswerNeverSlowsACallThatSucceeded() {
        this.contextRunner.withPropertyValues("resilience.fallback.last-good.store-timeout=20s").run((context) -> {
            LastGoodQuotes quotes = context.getBean(LastGoodQuotes.class);
            RedisLastGoodStore store = context.getBean(RedisLastGoodStore.class);
            quotes.quote("ETH");
            awaitKept(1);
            // Redis holds every client's writes for 10s: a write the call waited for
            // would hold each call that long
            redis.command("CLIENT PAUSE 10000 WRITE");
            long start = System.nanoTime();
            for (int i = 0; i < RedisLastGoodStore.MAX_WRITES_IN_FLIGHT + 6; i++) {
                assertThat(quotes.quote("ETH").status()).isEqualTo(ExecutionStatus.SUCCESS);
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            redis.command("CLIENT UNPAUSE");

            assertThat(took).isLessThan(Duration.ofSeconds(5));
            assertThat(store.skippedWrites()).as("beyond the writes in flight, values are not sent").isEqualTo(6);
            await().atMost(Duration.ofSeconds(15))
                .untilAsserted(() -> assertThat(redis.template().opsForValue().get(onlyKey()))
                    .contains("\"version\":" + (RedisLastGoodStore.MAX_WRITES_IN_FLIGHT + 1) + "}"));
            assertThat(store.failedWrites()).isZero();
        });
    }

    private static void awaitKept(int keys) {
        await().atMost(Duration.ofSeconds(10))
            .untilAsserted(() -> assertThat(redis.template().keys("quotes:lastgood:*")).hasSize(keys));
    }

    private static String onlyKey() {
        return redis.template().keys("quotes:lastgood:*").iterator().next();
    }

    private static double fallbacks(AssertableApplicationContext context, String name) {
        return context.getBean(MeterRegistry.class)
            .get("resilience.fallbacks")
            .tags("name", name, "fallback", "lastGood", "outcome", "success")
            .functionCounter()
            .count();
    }

}
