package dev.resilience.core.circuitbreaker;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import dev.resilience.core.time.VirtualTimeSource;

/**
 * A breaker on a virtual clock with small settings, and shorthands to run calls through
 * it: window of 10 calls or 10 seconds, 4 minimum calls, both thresholds at 50%, slow
 * from 1s, 30s wait in open, 3 probes, {@link IllegalStateException} ignored.
 */
@SuppressWarnings("removal")
final class BreakerFixture {

    static final Duration WAIT_IN_OPEN = Duration.ofSeconds(30);

    static final long FAST = Duration.ofMillis(10).toNanos();

    static final long SLOW = Duration.ofSeconds(1).toNanos();

    final VirtualTimeSource clock = new VirtualTimeSource();

    final CircuitBreaker breaker;

    BreakerFixture(SlidingWindowType type) {
        this(config(type).build());
    }

    BreakerFixture(CircuitBreakerConfig config) {
        this.breaker = CircuitBreaker.of("payment-gateway", config, this.clock);
    }

    static CircuitBreakerConfig.Builder config(SlidingWindowType type) {
        return CircuitBreakerConfig.builder()
            .slidingWindowType(type)
            .slidingWindowSize(10)
            .minimumCalls(4)
            .failureRateThreshold(50)
            .slowCallRateThreshold(50)
            .slowCallDuration(Duration.ofSeconds(1))
            .waitInOpen(WAIT_IN_OPEN)
            .halfOpenCalls(3)
            .ignoreOn(List.of(IllegalStateException.class));
    }

    void succeed(int times) {
        for (int i = 0; i < times; i++) {
            this.breaker.acquirePermission();
            this.breaker.onSuccess(FAST);
        }
    }

    void succeedSlowly(int times) {
        for (int i = 0; i < times; i++) {
            this.breaker.acquirePermission();
            this.breaker.onSuccess(SLOW);
        }
    }

    void fail(int times) {
        for (int i = 0; i < times; i++) {
            this.breaker.acquirePermission();
            this.breaker.onError(FAST, new IOException("down"));
        }
    }

    void failIgnored(int times) {
        for (int i = 0; i < times; i++) {
            this.breaker.acquirePermission();
            this.breaker.onError(FAST, new IllegalStateException("not for the breaker"));
        }
    }

    void open() {
        fail(4);
    }

    void openThenWait() {
        open();
        this.clock.advance(WAIT_IN_OPEN);
    }

}
