package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an asynchronous call does when things go wrong around its attempts: null stages,
 * rejected timers and executors, cancellation, errors. Every returned future completes,
 * and every permit and claim taken is given back or recorded.
 */
class AsyncFailurePathsTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.clock);

    private final List<ExecutionResult<?>> results = new ArrayList<>();

    private CircuitBreaker halfOpenBreaker() {
        CircuitBreaker breaker = CircuitBreaker.of("quotes",
                CircuitBreakerConfig.builder()
                    .minimumCalls(1)
                    .slidingWindowSize(1)
                    .halfOpenCalls(1)
                    .waitInOpen(Duration.ofSeconds(1))
                    .build(),
                this.clock);
        breaker.onError(breaker.acquirePermit(), 0, new IOException("down"));
        this.clock.advance(Duration.ofSeconds(1));
        return breaker;
    }

    private ResiliencePipeline.Builder pipeline(TimeSource time, Executor executor) {
        return ResiliencePipeline.builder("quote")
            .timeSource(time)
            .executor(executor)
            .idempotency(IdempotencyPolicy.of("quote", this.store))
            .retry(RetryPolicy.builder()
                .maxAttempts(3)
                .backoff(Backoff.of(Duration.ofMillis(100), 1.0, Duration.ofMillis(100), Jitter.NONE))
                .build())
            .listener(new ExecutionListener() {
                @Override
                public void onComplete(String name, ExecutionResult<?> result) {
                    AsyncFailurePathsTests.this.results.add(result);
                }
            });
    }

    private static Supplier<CompletionStage<String>> attempts(List<Supplier<CompletionStage<String>>> script) {
        AtomicInteger calls = new AtomicInteger();
        return () -> script.get(Math.min(calls.getAndIncrement(), script.size() - 1)).get();
    }

    private void assertKeyIsFree(String key) {
        assertThat(this.store.claim(storeKey("quote", key), "fp", Duration.ofSeconds(1)))
            .isInstanceOf(ClaimResult.Acquired.class);
    }

    @Test
    void retryWhoseActionReturnsNullEndsTheCallAndGivesBackItsClaim() {
        CompletableFuture<ExecutionResult<String>> future = pipeline(this.clock, Runnable::run).build()
            .executeAsync(CallContext.idempotent("k-null", "fp"),
                    attempts(List.of(() -> CompletableFuture.failedFuture(new IOException("reset")), () -> null)));

        this.clock.advance(Duration.ofMillis(200));

        assertThat(future).isDone();
        ExecutionResult<String> result = future.join();
        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.error()).isInstanceOf(NullPointerException.class).hasMessageContaining("returned null");
        assertThat(result.attempts()).isEqualTo(3);
        assertKeyIsFree("k-null");
    }

    @Test
    void rejectedTimerEndsTheCallWhoseProbeIsRecordedAndWhoseClaimIsReleased() {
        CircuitBreaker breaker = halfOpenBreaker();
        TimeSource rejectingTimer = new RejectingTimer(this.clock);

        CompletableFuture<ExecutionResult<String>> future = pipeline(rejectingTimer, Runnable::run)
            .circuitBreaker(breaker)
            .build()
            .executeAsync(CallContext.idempotent("k-timer", "fp"),
                    () -> CompletableFuture.failedFuture(new IOException("still down")));

        assertThat(future).isDone();
        assertThat(future.join().status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(future.join().error()).isInstanceOf(RejectedExecutionException.class);
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        assertKeyIsFree("k-timer");
    }

    @Test
    void rejectedExecutorEndsTheCallWithTheValueOfTheAwaitedAttemptRecordedAndStored() {
        CircuitBreaker breaker = halfOpenBreaker();
        AtomicBoolean open = new AtomicBoolean(true);
        Executor closing = (task) -> {
            if (!open.get()) {
                throw new RejectedExecutionException("executor shut down");
            }
            task.run();
        };
        CompletableFuture<String> pending = new CompletableFuture<>();

        CompletableFuture<ExecutionResult<String>> future = pipeline(this.clock, closing).circuitBreaker(breaker)
            .build()
            .executeAsync(CallContext.idempotent("k-executor", "fp"), () -> pending);
        open.set(false);
        pending.complete("late");

        assertThat(future).succeedsWithin(Duration.ofSeconds(10));
        assertThat(future.join().status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(future.join().value()).isEqualTo("late");
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(this.store.claim(storeKey("quote", "k-executor"), "fp", Duration.ofSeconds(1)))
            .isEqualTo(new ClaimResult.Completed("late"));
    }

    @Test
    void rejectedExecutorEndsTheCallWithTheFailureOfTheAwaitedAttemptAndGivesBackItsKey() {
        AtomicBoolean open = new AtomicBoolean(true);
        Executor closing = (task) -> {
            if (!open.get()) {
                throw new RejectedExecutionException("executor shut down");
            }
            task.run();
        };
        CompletableFuture<String> pending = new CompletableFuture<>();

        CompletableFuture<ExecutionResult<String>> future = pipeline(this.clock, closing).build()
            .executeAsync(CallContext.idempotent("k-refused", "fp"), () -> pending);
        open.set(false);
        pending.completeExceptionally(new IOException("reset"));

        assertThat(future).succeedsWithin(Duration.ofSeconds(10));
        assertThat(future.join().status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(future.join().error()).isInstanceOf(RejectedExecutionException.class);
        assertKeyIsFree("k-refused");
    }

    @Test
    void callStartedOnTheExecutorRunsNothingOnTheCallersThread() {
        List<Runnable> queued = new ArrayList<>();
        List<String> threads = new ArrayList<>();

        CompletableFuture<ExecutionResult<String>> future = pipeline(this.clock, queued::add).build()
            .executeAsyncOnExecutor(CallContext.idempotent("k-handed", "fp"), () -> {
                threads.add(Thread.currentThread().getName());
                return CompletableFuture.completedFuture("quote");
            });

        assertThat(future).isNotDone();
        assertThat(threads).isEmpty();
        assertThat(queued).hasSize(1);
        Thread runner = new Thread(queued.get(0), "runner");
        runner.start();
        assertThat(future).succeedsWithin(Duration.ofSeconds(10))
            .satisfies((result) -> assertThat(result.value()).isEqualTo("quote"));
        assertThat(threads).containsExactly("runner");
    }

    @Test
    void callWhoseFirstStepTheExecutorRefusesEndsWithTheRefusalHeardByTheListeners() {
        Executor refusing = (task) -> {
            throw new RejectedExecutionException("saturated");
        };
        AtomicInteger attempts = new AtomicInteger();

        CompletableFuture<ExecutionResult<String>> future = pipeline(this.clock, refusing).build()
            .executeAsyncOnExecutor(CallContext.idempotent("k-first-refused", "fp"), () -> {
                attempts.incrementAndGet();
                return CompletableFuture.completedFuture("quote");
            });

        assertThat(future).succeedsWithin(Duration.ofSeconds(10)).satisfies((result) -> {
            assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(result.error()).isInstanceOf(RejectedExecutionException.class).hasMessage("saturated");
            assertThat(result.attempts()).isZero();
        });
        assertThat(attempts).hasValue(0);
        assertThat(this.results).singleElement()
            .satisfies((result) -> assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR));
        assertKeyIsFree("k-first-refused");
    }

    @Test
    void callWhoseFirstStepTheExecutorDropsUnrunEndsWithAnError() {
        List<Runnable> queued = new ArrayList<>();

        CompletableFuture<ExecutionResult<String>> future = pipeline(this.clock, queued::add).build()
            .executeAsyncOnExecutor(CallContext.idempotent("k-first-dropped", "fp"),
                    () -> CompletableFuture.completedFuture("quote"));
        assertThat(queued).singleElement().isInstanceOf(Future.class);
        ((Future<?>) queued.get(0)).cancel(true);

        assertThat(future).succeedsWithin(Duration.ofSeconds(10)).satisfies((result) -> {
            assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(result.error()).isInstanceOf(RejectedExecutionException.class);
            assertThat(result.attempts()).isZero();
        });
        assertThat(this.results).hasSize(1);
        assertKeyIsFree("k-first-dropped");
    }

    @Test
    void cancellingDuringABackoffEndsTheCallAtOnceAndLeavesNoTimer() {
        AtomicInteger calls = new AtomicInteger();
        CompletableFuture<ExecutionResult<String>> future = pipeline(this.clock, Runnable::run).build()
            .executeAsync(CallContext.idempotent("k-cancel", "fp"), () -> {
                calls.incrementAndGet();
                return CompletableFuture.failedFuture(new IOException("reset"));
            });

        future.cancel(true);

        assertThat(this.clock.pendingTasks()).isZero();
        assertThat(this.results).singleElement().satisfies((result) -> {
            assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(result.error()).isInstanceOf(CancellationException.class);
        });
        assertKeyIsFree("k-cancel");
        this.clock.advance(Duration.ofSeconds(10));
        assertThat(calls).hasValue(1);
    }

    @Test
    void cancelledProbeGivesItsPermitBack() {
        CircuitBreaker breaker = halfOpenBreaker();
        CompletableFuture<String> pending = new CompletableFuture<>();

        pipeline(this.clock, Runnable::run).circuitBreaker(breaker)
            .build()
            .executeAsync(CallContext.idempotent("k-probe", "fp"), () -> pending)
            .cancel(true);

        assertThat(pending).isCancelled();
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        assertThat(breaker.acquirePermit()).isNotNull();
    }

    @Test
    void cancellingCallAsyncsFutureCancelsTheCall() {
        CompletableFuture<String> pending = new CompletableFuture<>();

        pipeline(this.clock, Runnable::run).build()
            .callAsync(CallContext.idempotent("k-value", "fp"), () -> pending)
            .cancel(true);

        assertThat(pending).isCancelled();
        assertKeyIsFree("k-value");
    }

    @Test
    void errorOfAnAttemptCompletesTheFutureWithItWithoutRetryOrFallback() {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger fallbacks = new AtomicInteger();
        FallbackChain chain = FallbackChain.of(FallbackHandler.of("cached", (error, call) -> {
            fallbacks.incrementAndGet();
            return "cached";
        }));

        CompletableFuture<ExecutionResult<String>> future = pipeline(this.clock, Runnable::run).fallbacks(chain)
            .build()
            .executeAsync(CallContext.idempotent("k-error", "fp"), () -> {
                calls.incrementAndGet();
                return CompletableFuture.failedFuture(new AssertionError("broken invariant"));
            });

        assertThat(future).isCompletedExceptionally();
        assertThat(future.handle((result, failure) -> failure).join()).isInstanceOf(AssertionError.class);
        assertThat(calls).hasValue(1);
        assertThat(fallbacks).hasValue(0);
        assertKeyIsFree("k-error");
    }

    @Test
    void lateValueOfAnAttemptThatTimedOutIsDiscarded() {
        CompletableFuture<String> slow = new CompletableFuture<>();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quote")
            .timeSource(this.clock)
            .executor(Runnable::run)
            .retry(RetryPolicy.builder().maxAttempts(1).attemptTimeout(Duration.ofMillis(100)).build())
            .build();

        CompletableFuture<ExecutionResult<String>> future = pipeline.executeAsync(CallContext.empty(), () -> slow);
        this.clock.advance(Duration.ofMillis(100));
        slow.obtrudeValue("late");

        assertThat(future).isDone();
        assertThat(future.join().status()).isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(future.join().value()).isNull();
        assertThat(future.join().error()).isInstanceOf(AttemptTimeoutException.class);
    }

    /** The store key of an unscoped caller's key, as the pipeline writes it. */
    private static String storeKey(String name, String key) {
        return IdempotencyPolicy.of(name, new InMemoryIdempotencyStore(TimeSource.system())).storeKey("", key);
    }

}
