package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An asynchronous call whose guards all answer at once is admitted through their
 * synchronous admission, with the same outcomes as through the asynchronous one.
 */
class AtOnceAdmissionTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final List<String> heard = new ArrayList<>();

    @Test
    void guardsThatAllAnswerAtOnceAreAskedSynchronouslyForEveryAttemptAndHearEachOutcome() {
        AtomicInteger runs = new AtomicInteger();
        ResiliencePipeline pipeline = retrying(3).guard(AtOnce.class, new AtOnce(AttemptGuard.RATE_LIMITER)).build();

        CompletableFuture<ExecutionResult<String>> future = pipeline.executeAsync(CallContext.empty(),
                () -> (runs.incrementAndGet() < 3) ? CompletableFuture.failedFuture(new IOException("down"))
                        : CompletableFuture.completedFuture("ok"));
        this.clock.advance(Duration.ofMillis(200));

        assertThat(future.join().status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(future.join().attempts()).isEqualTo(3);
        assertThat(this.heard).containsExactly("admit", "failed", "admit", "failed", "admit", "succeeded");
    }

    @Test
    void aGuardThatMayMakeAnAttemptWaitKeepsTheWholeChainOnTheAsynchronousAdmission() {
        ResiliencePipeline pipeline = retrying(1).guard(AtOnce.class, new AtOnce(AttemptGuard.RATE_LIMITER))
            .guard(MayWait.class, new MayWait())
            .build();

        ExecutionResult<String> result = pipeline
            .executeAsync(CallContext.empty(), () -> CompletableFuture.completedFuture("ok"))
            .join();

        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(this.heard).containsExactly("admitAsync", "may wait admitAsync", "may wait succeeded", "succeeded");
    }

    @Test
    void anOpenBreakerRefusesAnAsynchronousCallAtOnceWithoutRunningIt() {
        CircuitBreaker breaker = CircuitBreaker.of("at-once",
                CircuitBreakerConfig.builder().minimumCalls(1).slidingWindowSize(1).build(), this.clock);
        ResiliencePipeline pipeline = retrying(1).circuitBreaker(breaker).build();
        pipeline.executeAsync(CallContext.empty(), () -> CompletableFuture.failedFuture(new IOException("down")))
            .join();
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        AtomicInteger runs = new AtomicInteger();

        ExecutionResult<String> result = pipeline.<String>executeAsync(CallContext.empty(), () -> {
            runs.incrementAndGet();
            return CompletableFuture.completedFuture("ok");
        }).join();

        assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(result.error()).isInstanceOf(CallNotPermittedException.class);
        assertThat(result.attempts()).isZero();
        assertThat(runs).hasValue(0);
    }

    @Test
    void aGuardChainAnswersAtOnceOnlyWhenEveryGuardDoes() {
        assertThat(new Guards(List.of(), Runnable::run).answersAtOnce()).isTrue();
        assertThat(new Guards(List.of(new AtOnce(AttemptGuard.RATE_LIMITER)), Runnable::run).answersAtOnce()).isTrue();
        assertThat(new Guards(List.of(new AtOnce(AttemptGuard.RATE_LIMITER), new MayWait()), Runnable::run)
            .answersAtOnce()).isFalse();
    }

    private ResiliencePipeline.Builder retrying(int maxAttempts) {
        return ResiliencePipeline.builder("at-once")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder()
                .maxAttempts(maxAttempts)
                .backoff(Backoff.of(Duration.ofMillis(100), 1.0, Duration.ofSeconds(1), Jitter.NONE))
                .build());
    }

    /** A guard that never makes an attempt wait, and says so. */
    private final class AtOnce implements AttemptGuard<String> {

        private final int order;

        AtOnce(int order) {
            this.order = order;
        }

        @Override
        public int order() {
            return this.order;
        }

        @Override
        public boolean answersAtOnce() {
            return true;
        }

        @Override
        public String admit() {
            AtOnceAdmissionTests.this.heard.add("admit");
            return "pass";
        }

        @Override
        public CompletableFuture<String> admitAsync() {
            AtOnceAdmissionTests.this.heard.add("admitAsync");
            return CompletableFuture.completedFuture("pass");
        }

        @Override
        public void succeeded(String pass, long durationNanos) {
            AtOnceAdmissionTests.this.heard.add("succeeded");
        }

        @Override
        public void failed(String pass, long durationNanos, Throwable failure) {
            AtOnceAdmissionTests.this.heard.add("failed");
        }

        @Override
        public void abandoned(String pass) {
            AtOnceAdmissionTests.this.heard.add("abandoned");
        }

    }

    /** A guard that may make an attempt wait, as a bulkhead with a queue does. */
    private final class MayWait implements AttemptGuard<@Nullable Object> {

        @Override
        public int order() {
            return AttemptGuard.BULKHEAD;
        }

        @Override
        public @Nullable Object admit() {
            AtOnceAdmissionTests.this.heard.add("may wait admit");
            return null;
        }

        @Override
        public CompletableFuture<@Nullable Object> admitAsync() {
            AtOnceAdmissionTests.this.heard.add("may wait admitAsync");
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void succeeded(@Nullable Object pass, long durationNanos) {
            AtOnceAdmissionTests.this.heard.add("may wait succeeded");
        }

        @Override
        public void failed(@Nullable Object pass, long durationNanos, Throwable failure) {
            AtOnceAdmissionTests.this.heard.add("may wait failed");
        }

        @Override
        public void abandoned(@Nullable Object pass) {
            AtOnceAdmissionTests.this.heard.add("may wait abandoned");
        }

    }

}
