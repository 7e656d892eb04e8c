package dev.resilience.core.ratelimiter;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RateLimiterResetTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final RateLimiter limiter = RateLimiter.of("quotes",
            RateLimiterConfig.builder().limit(2).period(Duration.ofMinutes(1)).timeout(Duration.ofMinutes(1)).build(),
            this.clock);

    @Test
    void aSpentBurstIsFreeAgainWithoutTheClockMoving() {
        assertThat(this.limiter.tryAcquire()).isZero();
        assertThat(this.limiter.tryAcquire()).isZero();
        assertThat(this.limiter.tryAcquire()).isPositive();
        assertThat(this.limiter.availablePermits()).isZero();

        this.limiter.reset();

        assertThat(this.limiter.availablePermits()).isEqualTo(2);
        assertThat(this.limiter.tryAcquire()).isZero();
        assertThat(this.limiter.tryAcquire()).isZero();
        assertThat(this.limiter.tryAcquire()).isPositive();
        assertThat(this.limiter.permittedCalls()).isEqualTo(4);
        assertThat(this.limiter.rejectedCalls()).isEqualTo(2);
    }

    @Test
    void aCallWaitingForAReservedPermitGetsItWhenItsWaitEnds() {
        this.limiter.tryAcquire();
        this.limiter.tryAcquire();
        CompletableFuture<Void> waiting = this.limiter.acquireAsync();
        assertThat(waiting).isNotDone();

        this.limiter.reset();
        assertThat(waiting).isNotDone();
        this.clock.advance(Duration.ofSeconds(30));

        assertThat(waiting).isCompleted();
        assertThat(this.limiter.tryAcquire()).isZero();
    }

    @Test
    void aWaitGivenUpAfterTheResetGivesNothingBackToTheFreshBurst() {
        this.limiter.tryAcquire();
        this.limiter.tryAcquire();
        CompletableFuture<Void> waiting = this.limiter.acquireAsync();

        this.limiter.reset();
        waiting.cancel(false);

        assertThat(this.limiter.availablePermits()).isEqualTo(2);
        assertThat(this.limiter.tryAcquire()).isZero();
        assertThat(this.limiter.tryAcquire()).isZero();
        assertThat(this.limiter.tryAcquire()).isPositive();
    }

}
