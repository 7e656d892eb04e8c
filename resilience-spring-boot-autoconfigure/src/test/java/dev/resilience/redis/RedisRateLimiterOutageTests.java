package dev.resilience.redis;

import java.time.Duration;

import dev.resilience.core.ratelimiter.RateLimitedException;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.ThrowingSupplier;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.awaitility.Awaitility.await;

/**
 * A Redis rate limiter whose Redis is stopped, or does not answer ({@code CLIENT PAUSE}),
 * although the client's own command timeout is a minute: every permit waits at most the
 * store's timeout, each failure is counted, one WARN says so, and the call is judged by
 * the instance's own limiter ({@code local}) or refused ({@code reject}). The limiter's
 * clock is virtual, so the local judgements are exact.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisRateLimiterOutageTests {

    private static final Duration STORE_TIMEOUT = Duration.ofMillis(250);

    private static final Duration BOUND = STORE_TIMEOUT.multipliedBy(10);

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final LettuceConnectionFactory connections = new LettuceConnectionFactory(
            new RedisStandaloneConfiguration("127.0.0.1", redis.port()),
            LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(60)).build());

    {
        this.connections.afterPropertiesSet();
        this.connections.start();
    }

    @AfterEach
    void waitForRedisAndClose() {
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> "+PONG".equals(redis.command("PING")));
        this.connections.destroy();
    }

    private RateLimiter limiter(String name, RedisConnectionFactory factory,
            RedisRateLimiterStore.OnStoreError onStoreError) {
        RedisRateLimiterStore store = new RedisRateLimiterStore(new StringRedisTemplate(factory), "shop:ratelimit:",
                STORE_TIMEOUT, onStoreError, this.clock, null);
        RateLimiterConfig config = RateLimiterConfig.builder().limit(2).period(Duration.ofSeconds(1)).build();
        await().atMost(Duration.ofSeconds(10))
            .until(() -> store.permits("warm-up", RateLimiterConfig.ofDefaults()).take(0, 0) == 0);
        return RateLimiter.of(name, config, this.clock, store.permits(name, config));
    }

    private static String warning(String name) {
        return "Rate limiter '" + name + "' could not take a permit in Redis (key 'shop:ratelimit:{" + name + "}')";
    }

    @Test
    void aRedisThatDoesNotAnswerHoldsAPermitNoLongerThanTheStoreTimeoutAndTheInstanceJudgesItsCalls(
            CapturedOutput output) {
        RateLimiter limiter = limiter("paused-local", this.connections, RedisRateLimiterStore.OnStoreError.LOCAL);
        assertThat(limiter.tryAcquire()).isZero();

        assertThat(redis.command("CLIENT PAUSE 3000 ALL")).isEqualTo("+OK");
        long first = within(BOUND, limiter::tryAcquire);
        long second = within(BOUND, limiter::tryAcquire);
        long third = within(BOUND, limiter::tryAcquire);

        assertThat(first).as("the instance's own burst of 2").isZero();
        assertThat(second).isZero();
        assertThat(third).as("then one permit every 500ms").isEqualTo(Duration.ofMillis(500).toNanos());
        assertThat(limiter.sharedPermits().storeErrors()).isEqualTo(3);
        assertThat(limiter.permittedCalls()).isEqualTo(3);
        assertThat(limiter.rejectedCalls()).isOne();
        assertThat(output.getOut()).containsOnlyOnce(warning("paused-local"))
            .contains("QueryTimeoutException: Redis did not answer within 250 ms; this instance judges its calls by "
                    + "its own limit of 2 per 1s meanwhile, so the instances together may admit more (store errors "
                    + "so far: 1, not logged since the last warning: 0)");
    }

    @Test
    void aRedisThatDoesNotAnswerRefusesTheCallsWithinTheStoreTimeoutWhenSetToReject(CapturedOutput output) {
        RateLimiter limiter = limiter("paused-reject", this.connections, RedisRateLimiterStore.OnStoreError.REJECT);
        assertThat(limiter.tryAcquire()).isZero();

        assertThat(redis.command("CLIENT PAUSE 3000 ALL")).isEqualTo("+OK");
        RateLimitedException refused = within(BOUND, () -> refusal(limiter));
        RateLimitedException again = within(BOUND, () -> refusal(limiter));

        assertThat(refused.retryAfter()).as("one interval").isEqualTo(Duration.ofMillis(500));
        assertThat(again.retryAfter()).isEqualTo(Duration.ofMillis(500));
        assertThat(limiter.sharedPermits().storeErrors()).isEqualTo(2);
        assertThat(limiter.rejectedCalls()).isEqualTo(2);
        assertThat(output.getOut()).containsOnlyOnce(warning("paused-reject"))
            .contains("its calls are refused meanwhile");
    }

    @Test
    void aStoppedRedisIsJudgedLocallyUntilItIsBackThenRedisDecidesAgain(CapturedOutput output) {
        RateLimiter limiter = limiter("stopped-local", this.connections, RedisRateLimiterStore.OnStoreError.LOCAL);
        assertThat(limiter.tryAcquire()).isZero();
        assertThat(limiter.tryAcquire()).isZero();
        assertThat(limiter.tryAcquire()).as("Redis's burst is spent").isPositive();

        redis.stop();
        long[] local = new long[3];
        for (int i = 0; i < local.length; i++) {
            local[i] = within(BOUND, limiter::tryAcquire);
        }
        redis.start();

        assertThat(local).as("the instance's own state, untouched until now").containsExactly(0, 0, 500_000_000);
        assertThat(limiter.sharedPermits().storeErrors()).isEqualTo(3);
        assertThat(output.getOut()).containsOnlyOnce(warning("stopped-local"));
        await().atMost(Duration.ofSeconds(10)).until(() -> limiter.tryAcquire() == 0);
        assertThat(limiter.sharedPermits().storeErrors()).as("Redis came back empty, with a full burst")
            .isGreaterThanOrEqualTo(3);
        assertThat(redis.template().hasKey("shop:ratelimit:{stopped-local}")).isTrue();
    }

    @Test
    void aStoppedRedisRefusesTheCallsWhenSetToReject() {
        RateLimiter limiter = limiter("stopped-reject", this.connections, RedisRateLimiterStore.OnStoreError.REJECT);

        redis.stop();
        RateLimitedException refused = within(BOUND, () -> refusal(limiter));
        redis.start();

        assertThat(refused.retryAfter()).isEqualTo(Duration.ofMillis(500));
        assertThat(refused.rateLimiterName()).isEqualTo("stopped-reject");
        assertThat(limiter.sharedPermits().storeErrors()).isOne();
        assertThat(limiter.permittedCalls()).isZero();
    }

    @Test
    void aDriverWithoutAReactiveApiIsBoundedAsWell() {
        RateLimiter limiter = limiter("paused-blocking", new BlockingConnectionFactory(this.connections),
                RedisRateLimiterStore.OnStoreError.LOCAL);
        assertThat(limiter.tryAcquire()).isZero();

        assertThat(redis.command("CLIENT PAUSE 2000 ALL")).isEqualTo("+OK");
        long paused = within(BOUND, limiter::tryAcquire);

        assertThat(paused).isZero();
        assertThat(limiter.sharedPermits().storeErrors()).isOne();
    }

    private static <T> T within(Duration bound, ThrowingSupplier<T> call) {
        return assertTimeoutPreemptively(bound, call);
    }

    private static RateLimitedException refusal(RateLimiter limiter) {
        RateLimitedException[] refused = new RateLimitedException[1];
        assertThatExceptionOfType(RateLimitedException.class).isThrownBy(limiter::acquirePermissionWithoutWaiting)
            .satisfies((ex) -> refused[0] = ex);
        return refused[0];
    }

}
