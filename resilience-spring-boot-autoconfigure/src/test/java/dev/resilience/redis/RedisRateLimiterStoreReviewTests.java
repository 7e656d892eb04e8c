package dev.resilience.redis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.resilience.core.ratelimiter.RateLimitedException;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.ratelimiter.SharedPermits;
import dev.resilience.core.time.Durations;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Review findings on {@link RedisRateLimiterStore}: what Redis answers that is out of any
 * range the limiter can hold, callers whose thread is interrupted, and takes that Redis
 * carries out after their caller stopped waiting. The limiter's clock is virtual; Redis's
 * is its own.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisRateLimiterStoreReviewTests {

    private static final Duration HOUR = Duration.ofHours(1);

    private static final Duration STORE_TIMEOUT = Duration.ofMillis(250);

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

    private RedisRateLimiterStore store(RedisRateLimiterStore.OnStoreError onStoreError) {
        return new RedisRateLimiterStore(new StringRedisTemplate(this.connections), "shop:ratelimit:", STORE_TIMEOUT,
                onStoreError, this.clock, null);
    }

    private RateLimiter limiter(RedisRateLimiterStore store, String name, int limit, Duration timeout) {
        RateLimiterConfig config = RateLimiterConfig.builder().limit(limit).period(HOUR).timeout(timeout).build();
        return RateLimiter.of(name, config, this.clock, store.permits(name, config));
    }

    /**
     * A reservation given back while
     * {@value RedisRateLimiterStore#MAX_GIVE_BACKS_IN_FLIGHT} others still wait for Redis
     * is not sent: it stays spent, and that was said nowhere. It counts as a store error
     * of the limiter and is warned of.
     */
    @Test
    void aReservationNotGivenBackBecauseTooManyWaitForRedisIsAStoreErrorAndWarnedOf(CapturedOutput output) {
        RedisRateLimiterStore store = store(RedisRateLimiterStore.OnStoreError.LOCAL);
        RateLimiterConfig config = RateLimiterConfig.builder().limit(1).period(HOUR).timeout(HOUR).build();
        SharedPermits permits = store.permits("crowded", config);
        long now = this.clock.nanoTime();
        assertThat(permits.take(now, 0)).as("the burst").isZero();
        long wait = permits.take(now, Durations.toNanos(HOUR));
        assertThat(wait).as("a reservation").isPositive();
        store.giveBacksInFlight().acquireUninterruptibly(RedisRateLimiterStore.MAX_GIVE_BACKS_IN_FLIGHT);

        assertThat(permits.giveBack(now, wait)).isTrue();

        assertThat(permits.storeErrors()).isOne();
        assertThat(output).contains("Rate limiter 'crowded' could not give a reservation back in Redis",
                "64 reservations given back wait for Redis already", "its permit stays spent");
        store.giveBacksInFlight().release(RedisRateLimiterStore.MAX_GIVE_BACKS_IN_FLIGHT);
    }

    /**
     * Refused on a store error, a limiter of one call an hour told its callers to come
     * back in an hour (its interval), though Redis may answer again within a second: the
     * 429's Retry-After kept clients away long after a blip. The wait is one interval, at
     * most a second.
     */
    @Test
    void aCallRefusedBecauseRedisDidNotAnswerIsToldToComeBackWithinASecond() {
        RateLimiter limiter = limiter(store(RedisRateLimiterStore.OnStoreError.REJECT), "hourly", 1, Duration.ZERO);
        assertThat(redis.command("CLIENT PAUSE 2000 ALL")).isEqualTo("+OK");

        assertThatExceptionOfType(RateLimitedException.class).isThrownBy(limiter::acquirePermission)
            .satisfies((ex) -> assertThat(ex.retryAfter()).isEqualTo(Duration.ofSeconds(1)));
        assertThat(limiter.sharedPermits().storeErrors()).isOne();
    }

    /**
     * An arrival time no take can set, centuries ahead (written by anything else, or by a
     * Redis whose clock was far ahead), made the script answer a wait of about 10^16
     * microseconds, which overflowed into a positive wait taken for a free permit; and
     * since a refusal never rewrote the key, the limiter refused for centuries, until
     * someone deleted it. Such a key is replaced by a full burst from now, which expires
     * with it: refused for one interval, never admitted at once, and no store error.
     */
    @Test
    void anArrivalTimeNoTakeCanSetIsReplacedByAFullBurstThatExpires() {
        RateLimiter limiter = limiter(store(RedisRateLimiterStore.OnStoreError.LOCAL), "far", 1, Duration.ZERO);
        redis.template()
            .opsForValue()
            .set("shop:ratelimit:{far}", Long.toString(redisMicros() + 10_000_000_000_000_000L));

        long wait = limiter.tryAcquire();

        assertThat(wait).as("refused for about one interval")
            .isGreaterThan(HOUR.minusMinutes(1).toNanos())
            .isLessThanOrEqualTo(HOUR.toNanos());
        assertThat(limiter.permittedCalls()).isZero();
        assertThat(limiter.availablePermits()).isZero();
        assertThat(redis.template().getExpire("shop:ratelimit:{far}", TimeUnit.MILLISECONDS)).as("the key expires")
            .isPositive()
            .isLessThanOrEqualTo(HOUR.toMillis());
        assertThat(this.clock.sleeps()).isEmpty();
        assertThat(limiter.sharedPermits().storeErrors()).isZero();
    }

    /**
     * An arrival time Lua cannot count ({@code inf}) made the script answer a wait that
     * Redis turns into the smallest integer, the very value by which the store says it
     * could not answer, and one that is not a number made the script fail: either way the
     * limiter judged the call by its own full burst and admitted it. Such a key is
     * replaced by a full burst from now too: a refusal, no store error.
     */
    @ParameterizedTest
    @ValueSource(strings = { "1e400", "nan", "not a number" })
    void anArrivalTimeThatIsNoNumberIsARefusalNotACallJudgedLocally(String stored) {
        RateLimiter limiter = limiter(store(RedisRateLimiterStore.OnStoreError.LOCAL), "garbled", 1, Duration.ZERO);
        redis.template().opsForValue().set("shop:ratelimit:{garbled}", stored);

        long wait = limiter.tryAcquire();

        assertThat(limiter.permittedCalls()).isZero();
        assertThat(wait).as("refused").isPositive();
        assertThat(limiter.sharedPermits().storeErrors()).isZero();
        assertThat(redis.template().getExpire("shop:ratelimit:{garbled}", TimeUnit.MILLISECONDS)).isPositive();
    }

    /**
     * A caller whose thread is interrupted does not wait for Redis, so its take was sent
     * and its answer dropped: Redis spent a permit nobody used, and the interrupt was
     * counted and warned of as an error of Redis. Such a caller sends nothing, its call
     * is judged as on-store-error says, and no store error is counted; its interrupt is
     * kept.
     */
    @Test
    void anInterruptedCallerSpendsNoPermitInRedisAndIsNoStoreError(CapturedOutput output) {
        RateLimiter limiter = limiter(store(RedisRateLimiterStore.OnStoreError.LOCAL), "interrupted", 1, Duration.ZERO);

        Thread.currentThread().interrupt();
        long wait = limiter.tryAcquire();
        boolean interrupted = Thread.interrupted();

        assertThat(interrupted).isTrue();
        assertThat(wait).as("the instance's own burst").isZero();
        assertThat(redis.template().hasKey("shop:ratelimit:{interrupted}")).isFalse();
        assertThat(limiter.sharedPermits().storeErrors()).isZero();
        assertThat(output.getOut()).doesNotContain("could not take a permit");
        assertThat(limiter.tryAcquire()).as("Redis's burst is whole").isZero();
    }

    /**
     * With on-store-error reject, a take that Redis carries out after its caller stopped
     * waiting (here: Redis paused past the store timeout) reserved a permit for a call
     * that was refused: each such call spent a permit of the limit every instance shares.
     * A take that lands after its caller gave up reserves nothing.
     */
    @Test
    void aTakeThatLandsAfterItsCallerWasRefusedReservesNothingWhenSetToReject() {
        RateLimiter limiter = limiter(store(RedisRateLimiterStore.OnStoreError.REJECT), "late", 3, Duration.ZERO);
        assertThat(limiter.tryAcquire()).isZero();

        assertThat(redis.command("CLIENT PAUSE 1000 ALL")).isEqualTo("+OK");
        assertThat(limiter.tryAcquire()).as("refused: Redis did not answer in time").isPositive();
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> "+PONG".equals(redis.command("PING")));

        assertThat(limiter.tryAcquire()).as("the burst of 3 less the first call").isZero();
        assertThat(limiter.tryAcquire()).isZero();
        assertThat(limiter.tryAcquire()).isPositive();
        assertThat(limiter.sharedPermits().storeErrors()).isOne();
    }

    private static long redisMicros() {
        return redis.template()
            .execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time(TimeUnit.MICROSECONDS));
    }

}
