package dev.resilience.core;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.ratelimiter.RateLimitedException;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rate limiter in an asynchronous pipeline: a call whose permit is free within the
 * timeout reserves it and waits without a thread, the timer only completing its admission
 * and the executor starting its attempt; a wait beyond the timeout is refused at once
 * with the exact retry-after; a cancelled wait gives its reservation back while it is the
 * latest one.
 */
class RateLimiterAsyncPipelineTests {

    private static final Duration INTERVAL = Duration.ofMillis(200);

    private final VirtualTimeSource clock = new VirtualTimeSource();

    /** The pipeline's executor: steps wait here until the test runs them. */
    private final Queue<Runnable> handedOver = new ArrayDeque<>();

    private final Executor executor = this.handedOver::add;

    private final List<CompletableFuture<String>> stages = new ArrayList<>();

    private final AtomicInteger started = new AtomicInteger();

    private RateLimiter limiter(Duration timeout) {
        RateLimiter limiter = RateLimiter.of("search",
                RateLimiterConfig.builder().limit(5).period(Duration.ofSeconds(1)).timeout(timeout).build(),
                this.clock);
        for (int i = 0; i < 5; i++) {
            assertThat(limiter.tryAcquire()).isZero();
        }
        return limiter;
    }

    private CompletableFuture<ExecutionResult<String>> call(RateLimiter limiter) {
        return ResiliencePipeline.builder("search")
            .timeSource(this.clock)
            .executor(this.executor)
            .rateLimiter(limiter)
            .build()
            .executeAsync(CallContext.empty(), () -> {
                this.started.incrementAndGet();
                CompletableFuture<String> stage = new CompletableFuture<>();
                this.stages.add(stage);
                return stage;
            });
    }

    private void runHandedOver() {
        Runnable step;
        while ((step = this.handedOver.poll()) != null) {
            step.run();
        }
    }

    @Test
    void aCallWaitsExactlyTheRetryAfterWithoutAThreadAndIsThenAdmitted() {
        RateLimiter limiter = limiter(Duration.ofMillis(500));

        CompletableFuture<ExecutionResult<String>> call = call(limiter);

        assertThat(call).isNotDone();
        assertThat(this.clock.pendingTasks()).as("one timer for the reserved permit").isEqualTo(1);
        assertThat(this.clock.sleeps()).as("no thread sleeps").isEmpty();
        this.clock.advance(INTERVAL.minusNanos(1));
        assertThat(this.handedOver).isEmpty();
        assertThat(this.started).hasValue(0);

        this.clock.advance(Duration.ofNanos(1));
        assertThat(this.started).as("the timer only completes the admission").hasValue(0);
        assertThat(this.handedOver).hasSize(1);
        runHandedOver();
        assertThat(this.started).as("the executor starts the attempt").hasValue(1);
        this.stages.get(0).complete("found");
        runHandedOver();

        ExecutionResult<String> result = call.join();
        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.value()).isEqualTo("found");
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(limiter.permittedCalls()).isEqualTo(6);
        assertThat(limiter.rejectedCalls()).isZero();
    }

    @Test
    void aReservationCountsSoThatTheNextCallBeyondTheTimeoutIsRejectedWithTheExactRetryAfter() {
        RateLimiter limiter = limiter(Duration.ofMillis(300));
        CompletableFuture<ExecutionResult<String>> first = call(limiter);

        CompletableFuture<ExecutionResult<String>> second = call(limiter);

        assertThat(first).isNotDone();
        runHandedOver();
        assertThat(second).isDone();
        ExecutionResult<String> refused = second.join();
        assertThat(refused.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(refused.attempts()).isZero();
        assertThat(refused.error()).isInstanceOfSatisfying(RateLimitedException.class,
                (ex) -> assertThat(ex.retryAfter()).as("behind the first call's reservation")
                    .isEqualTo(INTERVAL.multipliedBy(2)));
        assertThat(this.clock.pendingTasks()).as("the first call's timer only").isEqualTo(1);
        this.clock.advance(INTERVAL);
        runHandedOver();
        this.stages.get(0).complete("first");
        runHandedOver();
        assertThat(first.join().value()).isEqualTo("first");
        assertThat(this.started).hasValue(1);
    }

    @Test
    void aCallCancelledWhileWaitingNeverStartsCancelsItsTimerAndGivesItsReservationBack() {
        RateLimiter limiter = limiter(Duration.ofMillis(500));
        CompletableFuture<ExecutionResult<String>> call = call(limiter);

        call.cancel(true);
        runHandedOver();

        assertThat(this.clock.pendingTasks()).as("the reservation's timer is cancelled").isZero();
        assertThat(limiter.tryAcquire()).as("the next permit is 200ms away again, not 400ms")
            .isEqualTo(INTERVAL.toNanos());
        assertThat(limiter.rejectedCalls()).as("the given-up wait and the probe").isEqualTo(2);
        this.clock.advance(Duration.ofSeconds(1));
        runHandedOver();
        assertThat(this.started).hasValue(0);
        assertThat(this.stages).isEmpty();
    }

    @Test
    void aCancelledCallsResultSaysCancelled() {
        RateLimiter limiter = limiter(Duration.ofMillis(500));
        List<ExecutionResult<?>> completed = new ArrayList<>();
        CompletableFuture<ExecutionResult<String>> call = ResiliencePipeline.builder("search")
            .timeSource(this.clock)
            .executor(this.executor)
            .rateLimiter(limiter)
            .build()
            .executeAsync(CallContext.empty().withListener(new ExecutionListener() {
                @Override
                public void onComplete(String name, ExecutionResult<?> result) {
                    completed.add(result);
                }
            }), () -> CompletableFuture.completedFuture("never"));

        call.cancel(true);
        runHandedOver();
        this.clock.advance(Duration.ofSeconds(1));
        runHandedOver();

        assertThat(completed).singleElement().satisfies((result) -> {
            assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(result.error()).isInstanceOf(CancellationException.class);
            assertThat(result.attempts()).isZero();
        });
    }

    @Test
    void aCancelledReservationBehindWhichAnotherWasMadeStaysSpent() {
        RateLimiter limiter = limiter(Duration.ofSeconds(1));
        CompletableFuture<ExecutionResult<String>> first = call(limiter);
        CompletableFuture<ExecutionResult<String>> second = call(limiter);

        first.cancel(true);
        runHandedOver();
        assertThat(limiter.tryAcquire()).as("the second call waits 400ms; its wait cannot shrink, so neither can ours")
            .isEqualTo(INTERVAL.multipliedBy(3).toNanos());

        second.cancel(true);
        runHandedOver();
        assertThat(limiter.tryAcquire()).as("the latest reservation is given back")
            .isEqualTo(INTERVAL.multipliedBy(2).toNanos());
        assertThat(this.clock.pendingTasks()).isZero();
        assertThat(this.started).hasValue(0);
    }

}
