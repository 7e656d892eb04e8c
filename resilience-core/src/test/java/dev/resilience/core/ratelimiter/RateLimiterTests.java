package dev.resilience.core.ratelimiter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RateLimiterTests {

    private static final long INTERVAL = Duration.ofMillis(200).toNanos();

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private RateLimiter limiter(Duration timeout) {
        return RateLimiter.of("search",
                RateLimiterConfig.builder().limit(5).period(Duration.ofSeconds(1)).timeout(timeout).build(),
                this.clock);
    }

    @Test
    void admitsTheBurstThenRefusesWithTheExactWaitOfContinuousRefill() {
        RateLimiter limiter = limiter(Duration.ZERO);

        for (int i = 0; i < 5; i++) {
            assertThat(limiter.tryAcquire()).as("permit %d", i + 1).isZero();
        }
        assertThat(limiter.tryAcquire()).isEqualTo(INTERVAL);
        assertThat(limiter.availablePermits()).isZero();
        this.clock.advance(Duration.ofMillis(199));
        assertThat(limiter.tryAcquire()).isEqualTo(Duration.ofMillis(1).toNanos());
        this.clock.advance(Duration.ofMillis(1));
        assertThat(limiter.tryAcquire()).isZero();
        assertThat(limiter.tryAcquire()).isEqualTo(INTERVAL);
        assertThat(limiter.permittedCalls()).isEqualTo(6);
        assertThat(limiter.rejectedCalls()).isEqualTo(3);
    }

    @Test
    void refusalCarriesTheNameAndTheExactRetryAfter() {
        RateLimiter limiter = limiter(Duration.ZERO);
        for (int i = 0; i < 5; i++) {
            limiter.acquirePermissionWithoutWaiting();
        }

        assertThatExceptionOfType(RateLimitedException.class).isThrownBy(limiter::acquirePermissionWithoutWaiting)
            .satisfies((ex) -> {
                assertThat(ex.rateLimiterName()).isEqualTo("search");
                assertThat(ex.retryAfter()).isEqualTo(Duration.ofMillis(200));
                assertThat(ex.getStackTrace()).isEmpty();
            });
    }

    @Test
    void refillsOnePermitPerIntervalUpToTheBurstAndNoFurther() {
        RateLimiter limiter = limiter(Duration.ZERO);
        for (int i = 0; i < 5; i++) {
            limiter.tryAcquire();
        }

        this.clock.advance(Duration.ofMillis(600));
        assertThat(limiter.availablePermits()).isEqualTo(3);
        this.clock.advance(Duration.ofHours(1));
        assertThat(limiter.availablePermits()).isEqualTo(5);
        int admitted = 0;
        while (limiter.tryAcquire() == 0) {
            admitted++;
        }
        assertThat(admitted).isEqualTo(5);
    }

    @Test
    void aSynchronousCallerWithATimeoutWaitsForTheNextPermit() throws InterruptedException {
        RateLimiter limiter = limiter(Duration.ofMillis(500));
        for (int i = 0; i < 5; i++) {
            limiter.acquirePermission();
        }

        limiter.acquirePermission();

        assertThat(this.clock.sleeps()).containsExactly(Duration.ofMillis(200));
        assertThat(limiter.permittedCalls()).isEqualTo(6);
    }

    @Test
    void aWaitLongerThanTheTimeoutIsRefusedWithoutSleeping() throws InterruptedException {
        RateLimiter limiter = limiter(Duration.ofMillis(100));
        for (int i = 0; i < 5; i++) {
            limiter.acquirePermission();
        }

        assertThatExceptionOfType(RateLimitedException.class).isThrownBy(limiter::acquirePermission)
            .satisfies((ex) -> assertThat(ex.retryAfter()).isEqualTo(Duration.ofMillis(200)));
        assertThat(this.clock.sleeps()).isEmpty();
    }

    @Test
    void anInterruptedWaitGivesItsReservationBack() throws InterruptedException {
        RateLimiter limiter = limiter(Duration.ofSeconds(1));
        for (int i = 0; i < 5; i++) {
            limiter.acquirePermission();
        }

        Thread.currentThread().interrupt();
        assertThatExceptionOfType(InterruptedException.class).isThrownBy(limiter::acquirePermission);

        assertThat(Thread.interrupted()).isFalse();
        assertThat(limiter.tryAcquire()).as("the next permit is still 200ms away").isEqualTo(INTERVAL);
        assertThat(limiter.permittedCalls()).isEqualTo(5);
        assertThat(limiter.rejectedCalls()).isEqualTo(2);
    }

    @Test
    void concurrentCallersAtAFrozenClockGetExactlyTheLimit() throws InterruptedException {
        RateLimiter limiter = RateLimiter.of("hammered",
                RateLimiterConfig.builder().limit(100).period(Duration.ofSeconds(1)).build(), this.clock);
        AtomicInteger admitted = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < 1_000; i++) {
                    if (limiter.tryAcquire() == 0) {
                        admitted.incrementAndGet();
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(thread.isAlive()).isFalse();
        }

        assertThat(admitted).hasValue(100);
        assertThat(limiter.permittedCalls()).isEqualTo(100);
        assertThat(limiter.rejectedCalls()).isEqualTo(16_000 - 100);
    }

    /**
     * The guarantee the class states: at most {@code limit + t / interval} calls in any
     * span {@code t}, reached by a caller that takes every permit as soon as it is free.
     */
    @Test
    void aGreedyCallerGetsTheBurstPlusOnePerIntervalSoTwiceTheLimitInItsFirstPeriod() {
        RateLimiter limiter = limiter(Duration.ZERO);

        int firstPeriod = takeEveryFreePermitEachMillisecondUntil(limiter, Duration.ofSeconds(1));
        int tenPeriods = firstPeriod + takeEveryFreePermitEachMillisecondUntil(limiter, Duration.ofSeconds(10));

        assertThat(firstPeriod).as("calls admitted from 0 to 1s, both ends included").isEqualTo(2 * 5);
        assertThat(tenPeriods).as("calls admitted from 0 to 10s").isEqualTo(5 + 10_000 / 200);
    }

    private int takeEveryFreePermitEachMillisecondUntil(RateLimiter limiter, Duration end) {
        int admitted = 0;
        while (true) {
            while (limiter.tryAcquire() == 0) {
                admitted++;
            }
            if (this.clock.elapsed().compareTo(end) >= 0) {
                return admitted;
            }
            this.clock.advance(Duration.ofMillis(1));
        }
    }

    @Test
    void intervalIsRoundedUpSoThatAPeriodNeverAdmitsMoreThanTheLimit() {
        RateLimiter limiter = RateLimiter.of("thirds",
                RateLimiterConfig.builder().limit(3).period(Duration.ofSeconds(1)).build(), this.clock);
        for (int i = 0; i < 3; i++) {
            limiter.tryAcquire();
        }

        assertThat(limiter.tryAcquire()).isEqualTo(TimeUnit.SECONDS.toNanos(1) / 3 + 1);
    }

    @Test
    void configRefusesValuesOutOfRangeNamingThem() {
        assertThatIllegalArgumentException().isThrownBy(() -> RateLimiterConfig.builder().limit(0))
            .withMessage("limit must be between 1 and 1000000, was 0");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> RateLimiterConfig.builder().period(Duration.ofNanos(999_999)))
            .withMessageContaining("period must be between PT0.001S and PT24H, was PT0.000999999S");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> RateLimiterConfig.builder().timeout(Duration.ofMillis(-1)))
            .withMessageContaining("timeout must be between 0 and PT1H, was PT-0.001S");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> RateLimiter.of(" ", RateLimiterConfig.ofDefaults(), this.clock));
    }

    @Test
    void configDefaultsAreThePublishedConstants() {
        RateLimiterConfig config = RateLimiterConfig.ofDefaults();

        assertThat(config.limit()).isEqualTo(RateLimiterConfig.DEFAULT_LIMIT);
        assertThat(config.period()).isEqualTo(RateLimiterConfig.DEFAULT_PERIOD);
        assertThat(config.timeout()).isEqualTo(Duration.ZERO);
    }

}
