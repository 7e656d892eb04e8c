package dev.resilience.core.ratelimiter;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

import dev.resilience.core.DelegatingTimer;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A caller whose thread paused between reading the clock and taking a permit, while other
 * callers took permits after it, is not refused a permit that is free by the time it
 * takes one.
 */
class RateLimiterStaleClockTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final StaleFirstReads time = new StaleFirstReads(this.clock);

    private final RateLimiter limiter = RateLimiter.of("quotes",
            RateLimiterConfig.builder().limit(1).period(Duration.ofSeconds(1)).build(), this.time);

    @Test
    void callerThatReadTheClockBeforeAPauseIsAdmittedWhenAPermitIsFreeNow() {
        assertThat(this.limiter.tryAcquire()).isZero();
        long readBeforeThePause = this.clock.nanoTime() + Duration.ofMillis(500).toNanos();
        this.clock.advance(Duration.ofSeconds(2));
        this.time.staleReads.push(readBeforeThePause);

        assertThat(this.limiter.tryAcquire()).as("a permit is free at the time the caller takes it").isZero();
        assertThat(this.limiter.rejectedCalls()).isZero();
    }

    @Test
    void callerIsStillRefusedWhenNoPermitIsFreeNow() {
        assertThat(this.limiter.tryAcquire()).isZero();
        this.clock.advance(Duration.ofMillis(400));

        assertThat(this.limiter.tryAcquire()).isEqualTo(Duration.ofMillis(600).toNanos());
        assertThat(this.limiter.rejectedCalls()).isOne();
    }

    /**
     * A clock whose next reads return earlier readings first, as a thread that read the
     * clock and then paused sees it.
     */
    private static final class StaleFirstReads extends DelegatingTimer {

        private final Deque<Long> staleReads = new ArrayDeque<>();

        StaleFirstReads(VirtualTimeSource clock) {
            super(clock);
        }

        @Override
        public long nanoTime() {
            Long stale = this.staleReads.poll();
            return (stale != null) ? stale : this.clock.nanoTime();
        }

    }

}
