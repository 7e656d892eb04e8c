package dev.resilience.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerListener;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.ScheduledTask;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Review findings on the guards ({@link Guards}) as the drivers pass attempts through
 * them: where the inner guards' admission runs after an outer guard's wait, and what an
 * attempt admitted after the call's deadline does.
 */
class GuardsReviewTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private RateLimiter spentLimiter(Duration period, Duration timeout, TimeSource time) {
        RateLimiter limiter = RateLimiter.of("quotes",
                RateLimiterConfig.builder().limit(1).period(period).timeout(timeout).build(), time);
        assertThat(limiter.tryAcquire()).isZero();
        return limiter;
    }

    /**
     * Shows that when an asynchronous call's rate limiter permit comes by its timer, the
     * breaker's admission runs inside that timer task, and with it the breaker's
     * listeners ({@code onCallNotPermitted} here); DESIGN 11 says a timer only fires, and
     * never runs a listener, and {@link AttemptGuard#admitAsync()} that the thread ending
     * a wait runs nothing but the future's completion. The time source here does not
     * override {@code scheduleHandOff}, as its Javadoc allows.
     */
    @Test
    void theBreakerAdmissionAfterARateLimitersWaitRunsOffTheTimer() {
        MarkingTimer timer = new MarkingTimer(this.clock);
        List<Boolean> listenerInTimer = Collections.synchronizedList(new ArrayList<>());
        CircuitBreaker breaker = CircuitBreaker.of("quotes", CircuitBreakerConfig.ofDefaults(), timer);
        breaker.addListener(new CircuitBreakerListener() {
            @Override
            public void onCallNotPermitted(String circuitBreakerName, Instant at) {
                listenerInTimer.add(MarkingTimer.inTimer());
            }
        });
        breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        List<Runnable> queued = new ArrayList<>();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quotes")
            .timeSource(timer)
            .executor(queued::add)
            .rateLimiter(spentLimiter(Duration.ofSeconds(1), Duration.ofSeconds(1), timer))
            .circuitBreaker(breaker)
            .build();

        CompletableFuture<ExecutionResult<String>> call = pipeline.executeAsync(CallContext.empty(),
                () -> CompletableFuture.completedFuture("never"));
        this.clock.advance(Duration.ofSeconds(1));
        while (!queued.isEmpty()) {
            queued.remove(0).run();
        }

        assertThat(call.join().status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(listenerInTimer).as("whether each breaker listener ran inside a timer task").containsExactly(false);
    }

    /**
     * Shows that an attempt a guard admitted only after the call's deadline had passed
     * still starts, sync and async, and both calls end SUCCESS 2s into a 1s
     * {@code maxDuration}; DESIGN 6: when the next attempt could not start before the
     * deadline, the call ends with status TIMEOUT.
     */
    @Test
    void anAttemptAdmittedOnlyAfterTheDeadlineDoesNotStart() {
        AtomicInteger started = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quotes")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder().maxAttempts(1).maxDuration(Duration.ofSeconds(1)).build())
            .rateLimiter(spentLimiter(Duration.ofSeconds(2), Duration.ofSeconds(5), this.clock))
            .build();

        ExecutionResult<String> sync = pipeline.execute(() -> {
            started.incrementAndGet();
            return "late";
        });
        assertThat(this.clock.elapsed()).as("the synchronous call waited for its permit")
            .isEqualTo(Duration.ofSeconds(2));
        CompletableFuture<ExecutionResult<String>> async = pipeline.executeAsync(CallContext.empty(), () -> {
            started.incrementAndGet();
            return CompletableFuture.completedFuture("late");
        });
        this.clock.advance(Duration.ofSeconds(2));

        assertThat(started).as("attempts started after their call's deadline").hasValue(0);
        assertThat(sync.status()).as("sync").isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(async.join().status()).as("async").isEqualTo(ExecutionStatus.TIMEOUT);
    }

    /**
     * A virtual clock that marks the thread while one of its timer tasks runs; it leaves
     * {@code scheduleHandOff} to the interface's default, {@code schedule}.
     */
    static final class MarkingTimer extends DelegatingTimer {

        private static final ThreadLocal<Boolean> IN_TIMER = ThreadLocal.withInitial(() -> false);

        MarkingTimer(VirtualTimeSource clock) {
            super(clock);
        }

        static boolean inTimer() {
            return IN_TIMER.get();
        }

        @Override
        public ScheduledTask schedule(Runnable task, Duration delay) {
            return this.clock.schedule(() -> {
                IN_TIMER.set(true);
                try {
                    task.run();
                }
                finally {
                    IN_TIMER.set(false);
                }
            }, delay);
        }

    }

}
