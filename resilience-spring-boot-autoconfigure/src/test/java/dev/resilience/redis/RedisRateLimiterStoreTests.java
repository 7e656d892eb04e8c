package dev.resilience.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.resilience.core.ratelimiter.RateLimitedException;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.time.ScheduledTask;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link RedisRateLimiterStore} on a real Redis: the GCRA of the engine, on Redis's
 * clock. Waits and retry-afters depend on the time Redis spent between two scripts, so
 * they are bounded by Redis's own {@code TIME} read before and after; the limiter's
 * sleeps and timers run on a virtual clock, which records them instead of waiting.
 */
class RedisRateLimiterStoreTests {

    private static final Duration HOUR = Duration.ofHours(1);

    private static final Duration HALF_HOUR = Duration.ofMinutes(30);

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final RedisRateLimiterStore store = new RedisRateLimiterStore(redis.template(), "shop:ratelimit:",
            RedisRateLimiterStore.DEFAULT_TIMEOUT, RedisRateLimiterStore.OnStoreError.LOCAL, this.clock, null);

    private RateLimiter limiter(String name, int limit, Duration period, Duration timeout) {
        RateLimiterConfig config = RateLimiterConfig.builder().limit(limit).period(period).timeout(timeout).build();
        return RateLimiter.of(name, config, this.clock, this.store.permits(name, config));
    }

    @Test
    void theBurstIsAdmittedThenARefusalCarriesTheWaitUntilTheNextPermitOnRedissClock() throws InterruptedException {
        RateLimiter limiter = limiter("quotes", 3, HOUR, Duration.ZERO);
        long before = redisMicros();
        for (int i = 0; i < 3; i++) {
            limiter.acquirePermission();
        }

        RateLimitedException refused = catchRateLimited(limiter);
        long elapsed = redisMicros() - before;

        assertThat(refused.retryAfter()).isLessThanOrEqualTo(Duration.ofMinutes(20))
            .isGreaterThanOrEqualTo(Duration.ofMinutes(20).minus(Duration.ofNanos(elapsed * 1000)));
        assertThat(limiter.permittedCalls()).isEqualTo(3);
        assertThat(limiter.rejectedCalls()).isOne();
        assertThat(limiter.sharedPermits().storeErrors()).isZero();
    }

    @Test
    void theKeyIsThePrefixAndTheNameAsHashTagAndExpiresWhenTheBurstIsFullAgain() throws InterruptedException {
        RateLimiter limiter = limiter("quotes", 10, Duration.ofSeconds(1), Duration.ZERO);
        long before = redisMicros();

        for (int i = 0; i < 3; i++) {
            limiter.acquirePermission();
        }

        long after = redisMicros();
        StringRedisTemplate template = redis.template();
        assertThat(this.store.key("quotes")).isEqualTo("shop:ratelimit:{quotes}");
        long arrival = Long.parseLong(template.opsForValue().get("shop:ratelimit:{quotes}"));
        assertThat(arrival).as("three intervals of 100ms after the first permit, in microseconds")
            .isBetween(before + 300_000, after + 300_000);
        assertThat(template.getExpire("shop:ratelimit:{quotes}", TimeUnit.MILLISECONDS)).isBetween(1L, 300L);
        await().atMost(Duration.ofSeconds(5)).until(() -> !template.hasKey("shop:ratelimit:{quotes}"));
        assertThat(limiter.tryAcquire()).as("a missing key is a full burst").isZero();
    }

    @Test
    void twoNamesNeverShareAKeyNorTheirPermits() {
        RateLimiter quotes = limiter("quotes", 1, HOUR, Duration.ZERO);
        RateLimiter quote = limiter("quote", 1, HOUR, Duration.ZERO);
        RateLimiter braced = limiter("quotes}x", 1, HOUR, Duration.ZERO);

        assertThat(quotes.tryAcquire()).isZero();
        assertThat(quote.tryAcquire()).isZero();
        assertThat(braced.tryAcquire()).isZero();

        assertThat(quotes.tryAcquire()).isPositive();
        assertThat(redis.template().keys("shop:ratelimit:*")).containsExactlyInAnyOrder("shop:ratelimit:{quotes}",
                "shop:ratelimit:{quote}", "shop:ratelimit:{quotes}x}");
        assertThat(this.store.rateLimiters()).containsExactly("quote", "quotes", "quotes}x");
    }

    @Test
    void aSynchronousCallerSleepsTheWaitRedisReservedWithinTheTimeout() throws InterruptedException {
        RateLimiter limiter = limiter("stocktake", 2, Duration.ofSeconds(1), Duration.ofSeconds(1));
        long before = redisMicros();
        limiter.acquirePermission();
        limiter.acquirePermission();

        limiter.acquirePermission();
        long elapsed = redisMicros() - before;

        assertThat(this.clock.sleeps()).singleElement()
            .satisfies((sleep) -> assertThat(sleep).isLessThanOrEqualTo(Duration.ofMillis(500))
                .isGreaterThanOrEqualTo(Duration.ofMillis(500).minus(Duration.ofNanos(elapsed * 1000))));
        assertThat(limiter.permittedCalls()).isEqualTo(3);
    }

    @Test
    void anAsynchronousCallerIsCompletedByTheTimerAfterTheWaitRedisReserved() {
        RateLimiter limiter = limiter("stocktake", 2, Duration.ofSeconds(1), Duration.ofSeconds(1));
        assertThat(limiter.acquireAsync()).isCompleted();
        assertThat(limiter.acquireAsync()).isCompleted();

        CompletableFuture<Void> third = limiter.acquireAsync();

        assertThat(third).isNotDone();
        assertThat(this.clock.pendingTasks()).isOne();
        this.clock.advance(Duration.ofMillis(500));
        assertThat(third).isCompleted();
        assertThat(limiter.permittedCalls()).isEqualTo(3);
    }

    @Test
    void anInterruptedWaitGivesItsReservationBackInRedis() throws InterruptedException {
        InterruptedSleeps sleeps = new InterruptedSleeps(this.clock);
        RateLimiterConfig config = RateLimiterConfig.builder().limit(1).period(HALF_HOUR).timeout(HOUR).build();
        RateLimiter limiter = RateLimiter.of("ledger", config, sleeps, this.store.permits("ledger", config));
        limiter.acquirePermission();
        String spent = arrival("ledger");

        sleeps.interruptNext();
        assertThatExceptionOfType(InterruptedException.class).isThrownBy(limiter::acquirePermission);

        await().atMost(Duration.ofSeconds(5)).until(() -> spent.equals(arrival("ledger")));
        assertThat(limiter.rejectedCalls()).isOne();
        limiter.acquirePermission();
        assertThat(this.clock.sleeps()).as("the given-back permit is the next one, half an hour away, not an hour")
            .singleElement()
            .satisfies((sleep) -> assertThat(sleep).isBetween(HALF_HOUR.minusSeconds(5), HALF_HOUR));
        assertThat(limiter.sharedPermits().storeErrors()).isZero();
    }

    @Test
    void aCancelledWaitGivesItsReservationBackOnlyWhileItIsTheLatest() throws InterruptedException {
        RateLimiter limiter = limiter("ledger", 1, HALF_HOUR, HOUR);
        limiter.acquirePermission();
        String spent = arrival("ledger");
        CompletableFuture<Void> first = limiter.acquireAsync();
        String afterFirst = arrival("ledger");
        CompletableFuture<Void> second = limiter.acquireAsync();
        String afterSecond = arrival("ledger");

        first.cancel(false);
        second.cancel(false);

        await().atMost(Duration.ofSeconds(5)).until(() -> afterFirst.equals(arrival("ledger")));
        assertThat(afterSecond).isNotEqualTo(afterFirst).isNotEqualTo(spent);
        assertThat(this.clock.pendingTasks()).isZero();
        assertThat(limiter.rejectedCalls()).isEqualTo(2);
    }

    @Test
    void aFlushedScriptCacheIsRefilledOnTheNextPermitAndGiveBacksStillLand() throws InterruptedException {
        RateLimiter limiter = limiter("ledger", 1, HALF_HOUR, HOUR);
        limiter.acquirePermission();
        String spent = arrival("ledger");
        assertThat(redis.command("SCRIPT FLUSH")).isEqualTo("+OK");

        CompletableFuture<Void> reserved = limiter.acquireAsync();
        assertThat(arrival("ledger")).isNotEqualTo(spent);
        assertThat(redis.command("SCRIPT FLUSH")).isEqualTo("+OK");
        reserved.cancel(false);

        await().atMost(Duration.ofSeconds(5)).until(() -> spent.equals(arrival("ledger")));
        assertThat(limiter.sharedPermits().storeErrors()).isZero();
    }

    @Test
    void theGaugeReadsTheLatestAnswerOfRedis() throws InterruptedException {
        RateLimiter limiter = limiter("gauge", 5, HOUR, Duration.ZERO);
        redis.template().opsForValue().set("shop:ratelimit:{gauge}", Long.toString(redisMicros() + 36 * 60_000_000L));

        limiter.acquirePermission();

        assertThat(limiter.availablePermits()).as("another instance took 3, this one 1").isOne();
    }

    @Test
    void anIntervalShorterThanAMicrosecondCannotBeKept() {
        RateLimiterConfig config = RateLimiterConfig.builder().limit(2000).period(Duration.ofMillis(1)).build();

        assertThatIllegalArgumentException().isThrownBy(() -> this.store.permits("fast", config))
            .withMessage("a rate limiter in Redis counts in microseconds: period / limit must be at least 1us, so at "
                    + "most 1000 calls per 1ms, not 2000");
    }

    @Test
    void aMillionPerSecondIsOneMicrosecondAPermitAndIsKept() throws InterruptedException {
        RateLimiter limiter = limiter("fastest", 1_000_000, Duration.ofSeconds(1), Duration.ZERO);

        limiter.acquirePermission();

        assertThat(limiter.permittedCalls()).isOne();
        assertThat(limiter.sharedPermits().storeErrors()).isZero();
    }

    private String arrival(String name) {
        return redis.template().opsForValue().get(this.store.key(name));
    }

    private static long redisMicros() {
        return redis.template()
            .execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time(TimeUnit.MICROSECONDS));
    }

    private static RateLimitedException catchRateLimited(RateLimiter limiter) {
        try {
            limiter.acquirePermissionWithoutWaiting();
        }
        catch (RateLimitedException ex) {
            return ex;
        }
        throw new AssertionError("expected a refusal");
    }

    /**
     * The virtual clock, whose next sleep can be made to throw as an interrupted one
     * does.
     */
    private static final class InterruptedSleeps implements TimeSource {

        private final VirtualTimeSource clock;

        private volatile boolean interruptNext;

        InterruptedSleeps(VirtualTimeSource clock) {
            this.clock = clock;
        }

        void interruptNext() {
            this.interruptNext = true;
        }

        @Override
        public long nanoTime() {
            return this.clock.nanoTime();
        }

        @Override
        public Instant now() {
            return this.clock.now();
        }

        @Override
        public void sleep(Duration duration) throws InterruptedException {
            if (this.interruptNext) {
                this.interruptNext = false;
                throw new InterruptedException("interrupted while waiting for a permit");
            }
            this.clock.sleep(duration);
        }

        @Override
        public ScheduledTask schedule(Runnable task, Duration delay) {
            return this.clock.schedule(task, delay);
        }

    }

}
