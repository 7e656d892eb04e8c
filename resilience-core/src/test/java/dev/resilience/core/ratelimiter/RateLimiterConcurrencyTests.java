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

/**
 * Many threads taking permits of one limiter at once, every one of them granted: each
 * compare-and-set that another thread's beat is tried again from the arrival time that
 * thread set, so no permit is lost or granted twice, and the counters and the permits
 * left are exact. The clock is frozen, so nothing refills.
 */
class RateLimiterConcurrencyTests {

    private static final int THREADS = 16;

    private static final int ROUNDS = 10_000;

    private final VirtualTimeSource clock = new VirtualTimeSource();

    @Test
    void concurrentCallersWithinTheBurstAreAllAdmittedAndEachTakesExactlyOnePermit() throws InterruptedException {
        RateLimiter limiter = RateLimiter.of("hammered",
                RateLimiterConfig.builder().limit(RateLimiterConfig.MAX_LIMIT).period(Duration.ofSeconds(1)).build(),
                this.clock);
        AtomicInteger refused = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < ROUNDS; i++) {
                        limiter.acquirePermission();
                    }
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
                catch (RateLimitedException ex) {
                    refused.incrementAndGet();
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(thread.isAlive()).isFalse();
        }

        assertThat(refused).hasValue(0);
        assertThat(limiter.permittedCalls()).isEqualTo((long) THREADS * ROUNDS);
        assertThat(limiter.rejectedCalls()).isZero();
        assertThat(limiter.availablePermits()).isEqualTo(RateLimiterConfig.MAX_LIMIT - THREADS * ROUNDS);
    }

}
