package dev.resilience.core.ratelimiter;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RateLimiter#acquireAsync()}: a permit free within the timeout is reserved at
 * once and its future completed by a timer when its wait has passed; a wait beyond the
 * timeout is refused at once; a given-up reservation goes back only while it is the
 * latest.
 */
class RateLimiterAsyncTests {

    private static final long INTERVAL = Duration.ofMillis(200).toNanos();

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private RateLimiter spentLimiter(Duration timeout) {
        RateLimiter limiter = RateLimiter.of("search",
                RateLimiterConfig.builder().limit(5).period(Duration.ofSeconds(1)).timeout(timeout).build(),
                this.clock);
        for (int i = 0; i < 5; i++) {
            assertThat(limiter.acquireAsync()).isCompleted();
        }
        return limiter;
    }

    @Test
    void aReservedPermitIsCompletedByTheTimerExactlyWhenItsWaitHasPassed() {
        RateLimiter limiter = spentLimiter(Duration.ofMillis(500));

        CompletableFuture<Void> permit = limiter.acquireAsync();

        assertThat(permit).isNotDone();
        assertThat(this.clock.sleeps()).isEmpty();
        this.clock.advance(Duration.ofNanos(INTERVAL - 1));
        assertThat(permit).isNotDone();
        this.clock.advance(Duration.ofNanos(1));
        assertThat(permit).isCompleted();
        assertThat(limiter.permittedCalls()).isEqualTo(6);
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void aWaitBeyondTheTimeoutIsRefusedAtOnceWithTheExactRetryAfterAndNoTimer() {
        RateLimiter limiter = spentLimiter(Duration.ofMillis(100));

        CompletableFuture<Void> permit = limiter.acquireAsync();

        assertThat(permit).isCompletedExceptionally();
        assertThat(permit).failsWithin(Duration.ZERO)
            .withThrowableOfType(ExecutionException.class)
            .havingCause()
            .isInstanceOfSatisfying(RateLimitedException.class,
                    (ex) -> assertThat(ex.retryAfter()).isEqualTo(Duration.ofNanos(INTERVAL)));
        assertThat(this.clock.pendingTasks()).isZero();
        assertThat(limiter.rejectedCalls()).isEqualTo(1);
    }

    @Test
    void aCancelledReservationGoesBackOnlyWhileItIsTheLatest() {
        RateLimiter limiter = spentLimiter(Duration.ofSeconds(1));
        CompletableFuture<Void> first = limiter.acquireAsync();
        CompletableFuture<Void> second = limiter.acquireAsync();

        first.cancel(false);
        assertThat(limiter.availablePermits()).isZero();
        CompletableFuture<Void> third = limiter.acquireAsync();
        this.clock.advance(Duration.ofNanos(2 * INTERVAL));
        assertThat(second).as("its wait is not shortened").isCompleted();
        assertThat(third).as("behind the first call's spent permit").isNotDone();
        this.clock.advance(Duration.ofNanos(INTERVAL));
        assertThat(third).isCompleted();

        CompletableFuture<Void> fourth = limiter.acquireAsync();
        fourth.cancel(false);
        assertThat(limiter.tryAcquire()).as("the latest reservation went back").isEqualTo(INTERVAL);
        assertThat(this.clock.pendingTasks()).isZero();
        assertThat(limiter.permittedCalls()).isEqualTo(7);
        assertThat(limiter.rejectedCalls()).as("two cancelled waits and the probe").isEqualTo(3);
    }

    @Test
    void aCancellationAfterTheTimerCompletedThePermitChangesNothing() {
        RateLimiter limiter = spentLimiter(Duration.ofMillis(500));
        CompletableFuture<Void> permit = limiter.acquireAsync();
        this.clock.advance(Duration.ofNanos(INTERVAL));

        assertThat(permit.cancel(false)).isFalse();

        assertThat(limiter.permittedCalls()).isEqualTo(6);
        assertThat(limiter.rejectedCalls()).isZero();
        assertThat(limiter.tryAcquire()).as("the permit was used").isEqualTo(INTERVAL);
    }

}
