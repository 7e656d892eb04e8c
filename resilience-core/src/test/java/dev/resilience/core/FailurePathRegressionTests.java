package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerListener;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.circuitbreaker.CircuitBreakerTransition;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.IdempotencyStoreException;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.ScheduledTask;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Failure paths of the engine that a review of DESIGN.md sections 6 and 11 found broken,
 * pinned: interrupts handed to fallbacks, a value lost to a late cancellation, timeouts
 * that missed the time an attempt spent before returning its stage, attempts started past
 * the deadline, a refused timer counted as a failure, endings run on the timer thread, a
 * null claim read as a mismatch, leases that overflowed, a stray timer and a leaked
 * permit.
 */
class FailurePathRegressionTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.clock);

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private static RetryPolicy.Builder retry() {
        return RetryPolicy.builder()
            .maxAttempts(3)
            .backoff(Backoff.of(Duration.ofMillis(100), 1.0, Duration.ofMillis(100), Jitter.NONE));
    }

    private static FallbackChain countingFallback(AtomicInteger calls) {
        return FallbackChain.of(FallbackHandler.of("cached", (error, call) -> {
            calls.incrementAndGet();
            return "cached";
        }));
    }

    // Interrupts: "ends the call at once ... the method's own error (or an unchecked
    // wrapper
    // for a wait) is thrown"

    @Test
    void interruptedExceptionThrownByTheMethodIsThrownAndNotHandedToAFallback() {
        AtomicInteger fallbacks = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("ledger")
            .timeSource(this.clock)
            .retry(retry().build())
            .fallbacks(countingFallback(fallbacks))
            .build();

        assertThatExceptionOfType(InterruptedException.class).isThrownBy(() -> pipeline.call(() -> {
            Thread.currentThread().interrupt();
            throw new InterruptedException("shutting down");
        }));
        assertThat(fallbacks).hasValue(0);
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
    }

    @Test
    void interruptDuringTheBackoffEndsTheCallWithoutRunningAFallback() {
        AtomicInteger fallbacks = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("ledger")
            .timeSource(this.clock)
            .retry(retry().build())
            .fallbacks(countingFallback(fallbacks))
            .build();

        ExecutionResult<String> result = pipeline.execute(() -> {
            Thread.currentThread().interrupt();
            throw new IOException("down");
        });

        assertThat(fallbacks).as("fallbacks run for an interrupted call").hasValue(0);
        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.error()).isInstanceOf(CallInterruptedException.class);
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
    }

    @Test
    void asyncInterruptedExceptionOfTheStageIsNotHandedToAFallback() {
        AtomicInteger fallbacks = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("ledger")
            .timeSource(this.clock)
            .executor(Runnable::run)
            .retry(retry().build())
            .fallbacks(countingFallback(fallbacks))
            .build();

        CompletableFuture<ExecutionResult<String>> future = pipeline.executeAsync(CallContext.empty(),
                () -> CompletableFuture.failedFuture(new InterruptedException("shutting down")));

        assertThat(future).isDone();
        assertThat(fallbacks).hasValue(0);
        assertThat(future.join().error()).isInstanceOf(InterruptedException.class);
    }

    // Idempotency: the work of a call is done once per key

    @Test
    void cancellingAfterTheAttemptSucceededDoesNotReleaseTheKeySoTheMethodNeverRunsTwice() {
        List<Runnable> queued = new ArrayList<>();
        Executor pool = queued::add;
        AtomicInteger charges = new AtomicInteger();
        List<CompletableFuture<String>> stages = new ArrayList<>();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("pay")
            .timeSource(this.clock)
            .executor(pool)
            .idempotency(IdempotencyPolicy.of("pay", this.store))
            .build();

        CompletableFuture<ExecutionResult<String>> first = pipeline.executeAsync(CallContext.idempotent("k", "fp"),
                () -> {
                    CompletableFuture<String> stage = new CompletableFuture<>();
                    stages.add(stage);
                    return stage;
                });
        charges.incrementAndGet();
        stages.get(0).complete("charged");
        // the caller gives up just as the charge completes, before the pool ran the next
        // step
        first.cancel(true);
        while (!queued.isEmpty()) {
            queued.remove(0).run();
        }

        ExecutionResult<String> second = pipeline.execute(CallContext.idempotent("k", "fp"),
                () -> "charged-" + charges.incrementAndGet());

        assertThat(charges).as("the payment ran twice for one key").hasValue(1);
        assertThat(second.replayed()).isTrue();
    }

    // Timeouts are final: "An attempt that outlives its attempt-timeout is a TIMEOUT
    // whatever
    // it returns afterwards; a late value is discarded, never returned or stored."

    @Test
    void asyncAttemptWhoseSupplierBlockedPastTheTimeoutIsATimeoutAndItsValueIsNotStored() {
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quote")
            .timeSource(this.clock)
            .executor(Runnable::run)
            .idempotency(IdempotencyPolicy.of("quote", this.store))
            .retry(RetryPolicy.builder().maxAttempts(1).attemptTimeout(Duration.ofSeconds(1)).build())
            .build();

        CompletableFuture<ExecutionResult<String>> future = pipeline.executeAsync(CallContext.idempotent("k", "fp"),
                () -> {
                    // a method that does its blocking work before returning its stage
                    this.clock.advance(Duration.ofSeconds(5));
                    return CompletableFuture.completedFuture("late");
                });

        assertThat(future).isDone();
        ExecutionResult<String> result = future.join();
        assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(result.value()).isNull();
        assertThat(this.store.claim(storeKey("quote", "k"), "fp", Duration.ofSeconds(1)))
            .as("the late value must not be stored")
            .isInstanceOf(ClaimResult.Acquired.class);
    }

    @Test
    void asyncAttemptTimeoutCountsTheTimeTheSupplierTookBeforeReturningItsStage() {
        CompletableFuture<String> stage = new CompletableFuture<>();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quote")
            .timeSource(this.clock)
            .executor(Runnable::run)
            .retry(RetryPolicy.builder().maxAttempts(1).attemptTimeout(Duration.ofSeconds(1)).build())
            .build();

        CompletableFuture<ExecutionResult<String>> future = pipeline.executeAsync(CallContext.empty(), () -> {
            this.clock.advance(Duration.ofMillis(900));
            return stage;
        });
        this.clock.advance(Duration.ofMillis(600));
        // 1.5s after the attempt began, 0.5s past its timeout
        stage.complete("late");

        assertThat(future).isDone();
        assertThat(future.join().status()).isEqualTo(ExecutionStatus.TIMEOUT);
    }

    @Test
    void syncAttemptThatReturnsAfterItsTimeoutIsATimeoutEvenWhenTheTimerIsLate() {
        LateTimer lateTimer = new LateTimer(this.clock);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quote")
            .timeSource(lateTimer)
            .retry(RetryPolicy.builder().maxAttempts(1).attemptTimeout(Duration.ofSeconds(1)).build())
            .build();

        ExecutionResult<String> result = pipeline.execute(() -> {
            this.clock.advance(Duration.ofSeconds(5));
            return "late";
        });

        assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(result.value()).isNull();
    }

    // Deadline: "when the next attempt could not start before the deadline, the call ends
    // with
    // status TIMEOUT"

    @Test
    void asyncRetryThatWouldStartPastTheDeadlineDoesNotRunTheMethodAgain() {
        List<Runnable> queued = new ArrayList<>();
        AtomicInteger runs = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quote")
            .timeSource(this.clock)
            .executor(queued::add)
            .retry(retry().maxDuration(Duration.ofSeconds(1)).build())
            .build();

        CompletableFuture<ExecutionResult<String>> future = pipeline.executeAsync(CallContext.empty(), () -> {
            runs.incrementAndGet();
            return CompletableFuture.failedFuture(new IOException("reset"));
        });
        this.clock.advance(Duration.ofMillis(100));
        // the backoff is over; the busy pool gets to the next attempt only after the
        // deadline
        this.clock.advance(Duration.ofSeconds(2));
        while (!queued.isEmpty()) {
            queued.remove(0).run();
        }

        assertThat(future).isDone();
        assertThat(runs).as("attempts started after the deadline").hasValue(1);
        assertThat(future.join().status()).isEqualTo(ExecutionStatus.TIMEOUT);
    }

    @Test
    void syncRetryWhoseBackoffOversleptTheDeadlineDoesNotRunTheMethodAgain() {
        AtomicInteger runs = new AtomicInteger();
        TimeSource oversleeping = new DelegatingTimer(this.clock) {
            @Override
            public void sleep(Duration duration) throws InterruptedException {
                // the thread wakes late, as after a GC pause or on a starved CPU
                super.sleep(duration.plusSeconds(2));
            }
        };
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quote")
            .timeSource(oversleeping)
            .retry(retry().maxDuration(Duration.ofSeconds(1)).build())
            .build();

        ExecutionResult<String> result = pipeline.execute(() -> {
            runs.incrementAndGet();
            throw new IOException("reset");
        });

        assertThat(runs).as("attempts started after the deadline").hasValue(1);
        assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
    }

    // Exceptions never escape the machinery: a rejected timer task ends the call with a
    // status

    @Test
    void rejectedAttemptTimerEndsTheCallWithoutCountingAFailureAgainstTheBreakerOrRetrying() {
        CircuitBreaker breaker = CircuitBreaker.of("ledger", CircuitBreakerConfig.ofDefaults(), this.clock);
        AtomicInteger runs = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("ledger")
            .timeSource(new RejectingTimer(this.clock))
            .retry(retry().attemptTimeout(Duration.ofSeconds(1)).build())
            .circuitBreaker(breaker)
            .build();

        ExecutionResult<String> result = pipeline.execute(() -> "ran-" + runs.incrementAndGet());

        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.error()).isInstanceOf(RejectedExecutionException.class);
        assertThat(breaker.metrics().failedCallsTotal())
            .as("attempts that never ran are recorded as failures of the dependency")
            .isZero();
        assertThat(result.attempts()).as("a refused timer is retried as if the method had failed")
            .isLessThanOrEqualTo(1);
    }

    // Threads: the timer thread never runs a store call, a listener or the completion of
    // a
    // returned future; an attempt timeout cancels the attempt's stage

    @Test
    void attemptTimeoutCancelsTheStageEvenWhenTheExecutorRejects() {
        CompletableFuture<String> stage = new CompletableFuture<>();
        Executor rejecting = (task) -> {
            throw new RejectedExecutionException("queue full");
        };
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quote")
            .timeSource(this.clock)
            .executor(rejecting)
            .retry(RetryPolicy.builder().maxAttempts(1).attemptTimeout(Duration.ofSeconds(1)).build())
            .build();

        CompletableFuture<ExecutionResult<String>> future = pipeline.executeAsync(CallContext.empty(), () -> stage);
        this.clock.advance(Duration.ofSeconds(1));

        assertThat(future).succeedsWithin(Duration.ofSeconds(10));
        assertThat(stage).as("the timed-out attempt's stage is left running").isCancelled();
    }

    @Test
    void executorRejectionAfterATimerNeverRunsStoreCallsListenersOrCompletionsOnTheTimerThread() {
        MarkingTimer timer = new MarkingTimer(this.clock);
        List<String> onTimer = new CopyOnWriteArrayList<>();
        IdempotencyStore recordingStore = new RecordingStore(this.store, timer, onTimer);
        Executor bounded = (task) -> {
            // a bounded pool whose queue is full, as under load
            throw new RejectedExecutionException("queue full");
        };
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quote")
            .timeSource(timer)
            .executor(bounded)
            .idempotency(IdempotencyPolicy.of("quote", recordingStore))
            .retry(RetryPolicy.builder().maxAttempts(1).attemptTimeout(Duration.ofSeconds(1)).build())
            .listener(new ExecutionListener() {
                @Override
                public void onComplete(String name, ExecutionResult<?> result) {
                    if (timer.onTimerThread()) {
                        onTimer.add("listener");
                    }
                }
            })
            .build();

        CompletableFuture<ExecutionResult<String>> future = pipeline.executeAsync(CallContext.idempotent("k", "fp"),
                CompletableFuture::new);
        future.whenComplete((result, failure) -> {
            if (timer.onTimerThread()) {
                onTimer.add("completion of the returned future");
            }
        });
        this.clock.advance(Duration.ofSeconds(1));

        assertThat(future).succeedsWithin(Duration.ofSeconds(10));
        assertThat(onTimer).as("work done on the timer thread").isEmpty();
    }

    @Test
    void automaticTransitionsOfABreakerBuiltWithoutAnExecutorDoNotRunListenersOnTheTimerThread() {
        MarkingTimer timer = new MarkingTimer(this.clock);
        CircuitBreaker breaker = CircuitBreaker.of("gateway",
                CircuitBreakerConfig.builder()
                    .minimumCalls(1)
                    .slidingWindowSize(1)
                    .waitInOpen(Duration.ofSeconds(1))
                    .automaticTransitionToHalfOpen(true)
                    .build(),
                timer);
        List<CircuitBreakerState> onTimer = new ArrayList<>();
        breaker.addListener(new CircuitBreakerListener() {
            @Override
            public void onStateTransition(CircuitBreakerTransition transition) {
                if (timer.onTimerThread()) {
                    onTimer.add(transition.to());
                }
            }
        });
        breaker.onError(breaker.acquirePermit(), 0, new IOException("down"));

        this.clock.advance(Duration.ofSeconds(1));

        await().atMost(Duration.ofSeconds(10)).until(() -> breaker.state() == CircuitBreakerState.HALF_OPEN);
        assertThat(onTimer).as("listeners run on the timer thread").isEmpty();
    }

    // Idempotency: a store that returns an odd value fails closed as a store error

    @Test
    void storeAnsweringAClaimWithNullFailsClosedAsAStoreErrorNotAsAKeyMismatch() {
        IdempotencyStore broken = new IdempotencyStore() {
            @Override
            public @Nullable ClaimResult claim(String key, String fingerprint, Duration lease) {
                return null;
            }

            @Override
            public boolean complete(String key, String ownerToken, @Nullable Object value, Duration ttl) {
                return true;
            }

            @Override
            public boolean release(String key, String ownerToken) {
                return true;
            }
        };
        AtomicInteger runs = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("pay")
            .timeSource(this.clock)
            .idempotency(IdempotencyPolicy.of("pay", broken))
            .build();

        ExecutionResult<String> result = pipeline.execute(CallContext.idempotent("k", "fp"),
                () -> "paid-" + runs.incrementAndGet());

        assertThat(runs).hasValue(0);
        assertThat(result.error()).isInstanceOf(IdempotencyStoreException.class);
        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
    }

    @Test
    void longLeaseThatThePolicyAcceptsNeitherThrowsOutOfTheCallNorLeavesTheKeyInProgress() {
        // positive, so accepted by IdempotencyPolicy and by the property validation;
        // beyond a long of nanoseconds
        Duration lease = Duration.ofDays(365L * 300);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("pay")
            .timeSource(this.clock)
            .idempotency(new IdempotencyPolicy("pay", this.store, IdempotencyPolicy.DEFAULT_TTL, lease,
                    dev.resilience.annotation.OnInProgress.REJECT))
            .build();

        ExecutionResult<String> result = null;
        Throwable escaped = null;
        try {
            result = pipeline.execute(CallContext.idempotent("k", "fp"), () -> "paid");
        }
        catch (Throwable ex) {
            escaped = ex;
        }

        assertThat(escaped).as("exception escaping the machinery").isNull();
        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(this.store.claim(storeKey("pay", "k"), "fp", Duration.ofSeconds(1)))
            .isInstanceOf(ClaimResult.Completed.class);
    }

    // Cancellation: no timer is left behind once the call is over

    @Test
    void cancellingWhileTheNextBackoffIsBeingScheduledLeavesNoTimer() {
        AtomicReference<CompletableFuture<ExecutionResult<String>>> call = new AtomicReference<>();
        AtomicInteger schedules = new AtomicInteger();
        TimeSource cancelOnSecondWait = new DelegatingTimer(this.clock) {
            @Override
            public ScheduledTask schedule(Runnable task, Duration delay) {
                if (schedules.incrementAndGet() == 2) {
                    call.get().cancel(true);
                }
                return super.schedule(task, delay);
            }
        };
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quote")
            .timeSource(cancelOnSecondWait)
            .executor(Runnable::run)
            .retry(retry().build())
            .build();

        call.set(pipeline.executeAsync(CallContext.empty(),
                () -> CompletableFuture.failedFuture(new IOException("reset"))));
        this.clock.advance(Duration.ofMillis(100));

        assertThat(call.get()).isDone();
        assertThat(schedules).hasValue(2);
        assertThat(this.clock.pendingTasks()).as("timers left after the call ended").isZero();
    }

    // Breaker permits: a permit taken is always recorded or given back

    @Test
    @SuppressWarnings("removal")
    void directFirstAttemptRecordsThePermitOfAnActionThatThrowsAPlainThrowable() {
        CircuitBreaker breaker = CircuitBreaker.of("gateway",
                CircuitBreakerConfig.builder()
                    .minimumCalls(1)
                    .slidingWindowSize(1)
                    .halfOpenCalls(1)
                    .waitInOpen(Duration.ofSeconds(1))
                    .build(),
                this.clock);
        breaker.onError(breaker.acquirePermit(), 0, new IOException("down"));
        this.clock.advance(Duration.ofSeconds(1));
        ResiliencePipeline pipeline = ResiliencePipeline.builder("gateway")
            .timeSource(this.clock)
            .circuitBreaker(breaker)
            .build();

        try {
            pipeline.call(() -> {
                throw FailurePathRegressionTests
                    .<RuntimeException>sneaky(new Throwable("not an exception, not an error"));
            });
        }
        catch (Throwable expected) {
            // whatever it throws
        }

        boolean recorded = breaker.state() != CircuitBreakerState.HALF_OPEN;
        assertThat(recorded || breaker.tryAcquirePermission())
            .as("the probe's permit was neither recorded nor given back: the breaker is stuck half open")
            .isTrue();
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable throwable) throws E {
        throw (E) throwable;
    }

    /**
     * Delegates everything to a virtual clock.
     */
    /**
     * Marks the thread while it runs a timer task, as the resilience-timer thread would
     * be.
     */
    private static final class MarkingTimer extends DelegatingTimer {

        private final ThreadLocal<Boolean> firing = ThreadLocal.withInitial(() -> false);

        MarkingTimer(VirtualTimeSource clock) {
            super(clock);
        }

        @Override
        public ScheduledTask schedule(Runnable task, Duration delay) {
            return this.clock.schedule(() -> {
                this.firing.set(true);
                try {
                    task.run();
                }
                finally {
                    this.firing.set(false);
                }
            }, delay);
        }

        boolean onTimerThread() {
            return this.firing.get();
        }

    }

    /**
     * A timer whose tasks fire late: never during the test, as a busy timer thread would.
     */
    private static final class LateTimer extends DelegatingTimer {

        LateTimer(VirtualTimeSource clock) {
            super(clock);
        }

        @Override
        public ScheduledTask schedule(Runnable task, Duration delay) {
            return () -> true;
        }

    }

    /**
     * Notes store calls made on the timer thread.
     */
    private record RecordingStore(IdempotencyStore delegate, MarkingTimer timer,
            List<String> onTimer) implements IdempotencyStore {

        @Override
        public ClaimResult claim(String key, String fingerprint, Duration lease) {
            note("claim");
            return this.delegate.claim(key, fingerprint, lease);
        }

        @Override
        public boolean complete(String key, String ownerToken, @Nullable Object value, Duration ttl) {
            note("complete");
            return this.delegate.complete(key, ownerToken, value, ttl);
        }

        @Override
        public boolean release(String key, String ownerToken) {
            note("release");
            return this.delegate.release(key, ownerToken);
        }

        private void note(String call) {
            if (this.timer.onTimerThread()) {
                this.onTimer.add("store " + call);
            }
        }
    }

    /** The store key of an unscoped caller's key, as the pipeline writes it. */
    private static String storeKey(String name, String key) {
        return IdempotencyPolicy.of(name, new InMemoryIdempotencyStore(TimeSource.system())).storeKey("", key);
    }

}
