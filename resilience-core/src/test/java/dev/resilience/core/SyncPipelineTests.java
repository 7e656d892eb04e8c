package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryAfter;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.core.retry.RetryEvent;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class SyncPipelineTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private RetryPolicy.Builder retry() {
        return RetryPolicy.builder()
            .maxAttempts(3)
            .backoff(Backoff.of(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1), Jitter.NONE));
    }

    private ResiliencePipeline.Builder pipeline() {
        return ResiliencePipeline.builder("payment").timeSource(this.clock);
    }

    @Test
    void successOnFirstAttemptIsReportedWithOneAttemptAndNothingElse() {
        ExecutionResult<String> result = pipeline().retry(retry().build()).build().execute(() -> "paid");

        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.value()).isEqualTo("paid");
        assertThat(result.error()).isNull();
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(result.attemptFailures()).isEmpty();
        assertThat(result.fallbackUsed()).isFalse();
        assertThat(result.fallbackIndex()).isZero();
        assertThat(result.replayed()).isFalse();
        assertThat(result.metadata()).isEmpty();
        assertThat(this.clock.sleeps()).isEmpty();
    }

    @Test
    void successAfterRetriesRecordsEachFailedAttemptAndBacksOffExponentially() {
        IOException first = new IOException("reset");
        IOException second = new IOException("timeout");
        FlakyAction action = FlakyAction.failing(first, second);
        List<RetryEvent> events = new ArrayList<>();

        ExecutionResult<String> result = pipeline().retry(retry().listener(events::add).build())
            .build()
            .execute(action);

        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.value()).isEqualTo("ok-3");
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(result.attemptFailures()).extracting(AttemptFailure::attempt).containsExactly(1, 2);
        assertThat(result.attemptFailures()).extracting(AttemptFailure::error).containsExactly(first, second);
        assertThat(this.clock.sleeps()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
        assertThat(result.duration()).isEqualTo(Duration.ofMillis(300));
        assertThat(events).extracting(RetryEvent::attempt).containsExactly(1, 2);
        assertThat(events).extracting(RetryEvent::delay)
            .containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
    }

    @Test
    void nonRetryableErrorEndsTheCallAsBusinessFailureAfterOneAttempt() {
        FlakyAction action = FlakyAction.failing(new IllegalArgumentException("card declined"));

        ExecutionResult<String> result = pipeline().retry(retry().abortOn(IllegalArgumentException.class).build())
            .build()
            .execute(action);

        assertThat(result.status()).isEqualTo(ExecutionStatus.FAILURE);
        assertThat(result.error()).isInstanceOf(IllegalArgumentException.class).hasMessage("card declined");
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(action.calls()).isEqualTo(1);
    }

    @Test
    void exhaustedRetriesEndAsErrorWithTheLastErrorAsItWasThrown() {
        IOException first = new IOException("1");
        IOException second = new IOException("2");
        IOException third = new IOException("3");
        FlakyAction action = FlakyAction.failing(first, second, third);

        ExecutionResult<String> result = pipeline().retry(retry().build()).build().execute(action);

        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.error()).isSameAs(third);
        assertThat(third.getSuppressed()).isEmpty();
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(result.attemptFailures()).extracting(AttemptFailure::error).containsExactly(first, second, third);
        assertThat(action.calls()).isEqualTo(3);
    }

    @Test
    void interruptionDuringTheBackoffEndsTheCallAtOnceAndKeepsTheFlag() {
        IOException failure = new IOException("down");
        AtomicInteger calls = new AtomicInteger();
        try {
            ExecutionResult<String> result = pipeline().retry(retry().maxAttempts(5).build()).build().execute(() -> {
                calls.incrementAndGet();
                Thread.currentThread().interrupt();
                throw failure;
            });

            assertThat(Thread.currentThread().isInterrupted()).isTrue();
            assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(result.error()).isInstanceOf(CallInterruptedException.class)
                .hasCauseInstanceOf(InterruptedException.class);
            assertThat(result.error().getSuppressed()).containsExactly(failure);
            assertThat(failure.getSuppressed()).isEmpty();
            assertThat(result.attempts()).isEqualTo(1);
            assertThat(calls).hasValue(1);
        }
        finally {
            Thread.interrupted();
        }
    }

    @Test
    void callThrowsTheFinalErrorAsItWasThrown() {
        IOException first = new IOException("1");
        IOException last = new IOException("2");
        ResiliencePipeline pipeline = pipeline().retry(retry().maxAttempts(2).build()).build();

        assertThatExceptionOfType(IOException.class).isThrownBy(() -> pipeline.call(FlakyAction.failing(first, last)))
            .isSameAs(last)
            .satisfies((ex) -> assertThat(ex.getSuppressed()).isEmpty());
    }

    @Test
    void resultPredicateRetriesUnacceptableValuesAndEndsAsErrorWhenTheyPersist() {
        AtomicInteger calls = new AtomicInteger();
        ResiliencePipeline pipeline = pipeline().retry(retry().retryOnResult("pending"::equals).build()).build();

        ExecutionResult<String> result = pipeline.execute(() -> (calls.incrementAndGet() < 3) ? "pending" : "done");
        ExecutionResult<String> exhausted = pipeline.execute(() -> "pending");

        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.value()).isEqualTo("done");
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(exhausted.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(exhausted.error()).isInstanceOfSatisfying(RejectedResultException.class,
                (ex) -> assertThat(ex.result()).isEqualTo("pending"));
    }

    @Test
    void attemptOverrunningItsTimeoutIsInterruptedAndTheCallEndsAsTimeout() {
        ResiliencePipeline pipeline = pipeline()
            .retry(retry().maxAttempts(2).attemptTimeout(Duration.ofSeconds(1)).build())
            .build();
        AtomicInteger calls = new AtomicInteger();

        ExecutionResult<String> result = pipeline.execute(() -> {
            calls.incrementAndGet();
            this.clock.advance(Duration.ofSeconds(2));
            TimeUnit.SECONDS.sleep(30);
            return "late";
        });

        assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(result.error()).isInstanceOf(AttemptTimeoutException.class)
            .hasCauseInstanceOf(InterruptedException.class);
        assertThat(result.attempts()).isEqualTo(2);
        assertThat(calls).hasValue(2);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void attemptFinishingInTimeLeavesNoTimerAndNoInterrupt() {
        ResiliencePipeline pipeline = pipeline().retry(retry().attemptTimeout(Duration.ofSeconds(1)).build()).build();

        ExecutionResult<String> result = pipeline.execute(() -> "fast");

        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(this.clock.pendingTasks()).isZero();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void deadlineEndsTheCallAsTimeoutWithoutSleepingPastIt() {
        ResiliencePipeline pipeline = pipeline()
            .retry(retry().maxAttempts(5).maxDuration(Duration.ofMillis(250)).build())
            .build();
        FlakyAction action = FlakyAction.failing(new IOException("1"), new IOException("2"), new IOException("3"));

        ExecutionResult<String> result = pipeline.execute(action);

        assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(result.error()).isInstanceOf(DeadlineExceededException.class)
            .hasMessageContaining("250ms")
            .cause()
            .hasMessage("2");
        assertThat(result.attempts()).isEqualTo(2);
        assertThat(this.clock.sleeps()).containsExactly(Duration.ofMillis(100));
        assertThat(this.clock.elapsed()).isLessThan(Duration.ofMillis(250));
    }

    @Test
    void budgetRefusingARetryEndsTheCallWithTheLastErrorAndSaysSo() {
        RetryBudget budget = new RetryBudget(0.0, 0, Duration.ofSeconds(10), this.clock);
        IOException failure = new IOException("down");
        AtomicInteger refusals = new AtomicInteger();
        ResiliencePipeline pipeline = pipeline().retry(retry().budget(budget).build())
            .listener(new ExecutionListener() {
                @Override
                public void onBudgetRefused(String name) {
                    refusals.incrementAndGet();
                }
            })
            .build();

        ExecutionResult<String> result = pipeline.execute(FlakyAction.failing(failure));

        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.error()).isSameAs(failure);
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(result.metadata()).containsEntry(ExecutionResult.BUDGET_REFUSED, true);
        assertThat(refusals).hasValue(1);
        assertThat(budget.refusedTotal()).isEqualTo(1);
    }

    @Test
    void everyRetryAttemptIsRecordedByTheBreaker() {
        CircuitBreaker breaker = CircuitBreaker.of("gateway", CircuitBreakerConfig.builder().minimumCalls(100).build(),
                this.clock);
        ResiliencePipeline pipeline = pipeline().retry(retry().build()).circuitBreaker(breaker).build();

        pipeline.execute(FlakyAction.failing(new IOException("1"), new IOException("2")));

        assertThat(breaker.metrics().bufferedCalls()).isEqualTo(3);
        assertThat(breaker.metrics().failedCalls()).isEqualTo(2);
    }

    @Test
    void openBreakerRejectsWithoutRunningAndIsNeverRetried() {
        CircuitBreaker breaker = CircuitBreaker.of("gateway", CircuitBreakerConfig.ofDefaults(), this.clock);
        breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        FlakyAction action = FlakyAction.failing();

        ExecutionResult<String> result = pipeline().retry(retry().build())
            .circuitBreaker(breaker)
            .build()
            .execute(action);

        assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(result.error()).isInstanceOf(CallNotPermittedException.class);
        assertThat(result.attempts()).isZero();
        assertThat(action.calls()).isZero();
        assertThat(this.clock.sleeps()).isEmpty();
    }

    @Test
    void openBreakerGoesStraightToTheFallbackChain() {
        CircuitBreaker breaker = CircuitBreaker.of("gateway", CircuitBreakerConfig.ofDefaults(), this.clock);
        breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        FallbackChain chain = FallbackChain
            .of(FallbackHandler.of("backup", (error, call) -> "backup:" + error.getClass().getSimpleName()));

        ExecutionResult<String> result = pipeline().retry(retry().build())
            .circuitBreaker(breaker)
            .fallbacks(chain)
            .build()
            .execute(FlakyAction.failing());

        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.value()).isEqualTo("backup:CallNotPermittedException");
        assertThat(result.fallbackUsed()).isTrue();
        assertThat(result.fallbackIndex()).isEqualTo(1);
        assertThat(result.attempts()).isZero();
        assertThat(this.clock.sleeps()).isEmpty();
    }

    @Test
    void fallbacksAreTriedInOrderSkippingThoseThatDoNotApplyUntilOneSucceeds() {
        List<String> tried = new ArrayList<>();
        FallbackChain chain = FallbackChain.of(
                FallbackHandler.of("onTimeout", AttemptTimeoutException.class, (error, call) -> "never"),
                FallbackHandler.of("backupGateway", (error, call) -> {
                    tried.add("backupGateway");
                    throw new IOException("backup down");
                }), FallbackHandler.of("deferPayment", IOException.class, (error, call) -> {
                    tried.add("deferPayment");
                    return "deferred";
                }));
        IOException primary = new IOException("primary down");

        ExecutionResult<String> result = pipeline().retry(retry().maxAttempts(1).build())
            .fallbacks(chain)
            .build()
            .execute(FlakyAction.failing(primary));

        assertThat(tried).containsExactly("backupGateway", "deferPayment");
        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.value()).isEqualTo("deferred");
        assertThat(result.fallbackIndex()).isEqualTo(3);
        assertThat(result.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "deferPayment");
        assertThat(result.attemptFailures()).extracting(AttemptFailure::error).containsExactly(primary);
    }

    @Test
    void failingFallbacksLeaveThePrimaryOutcomeUntouched() {
        IOException backupFailure = new IOException("backup down");
        FallbackChain chain = FallbackChain.of(FallbackHandler.of("backup", (error, call) -> {
            throw backupFailure;
        }));
        IOException primary = new IOException("primary down");

        ExecutionResult<String> result = pipeline().retry(retry().maxAttempts(1).build())
            .fallbacks(chain)
            .build()
            .execute(FlakyAction.failing(primary));

        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.error()).isSameAs(primary);
        assertThat(primary.getSuppressed()).isEmpty();
        assertThat(result.fallbackUsed()).isFalse();
    }

    @Test
    void fallbackChainSkipsFailuresInSkipOn() {
        FallbackChain chain = new FallbackChain(List.of(FallbackHandler.of("backup", (error, call) -> "backup")),
                List.of(), List.of(IllegalArgumentException.class));

        ExecutionResult<String> result = pipeline().fallbacks(chain)
            .build()
            .execute(FlakyAction.failing(new IllegalArgumentException("declined")));

        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.fallbackUsed()).isFalse();
    }

    @Test
    void failureAskingForALongerWaitIsRetriedNoSoonerThanItAsked() {
        ExecutionResult<String> result = pipeline()
            .retry(retry().backoff(Backoff.of(Duration.ofMillis(100), 2.0, Duration.ofSeconds(5), Jitter.NONE)).build())
            .build()
            .execute(FlakyAction.failing(new ThrottledException(Duration.ofSeconds(3))));

        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(this.clock.sleeps()).containsExactly(Duration.ofSeconds(3));
    }

    @Test
    void failureAskingForAWaitBeyondTheDeadlineEndsTheCallAsTimeout() {
        ExecutionResult<String> result = pipeline()
            .retry(retry().backoff(Backoff.of(Duration.ofMillis(100), 2.0, Duration.ofSeconds(5), Jitter.NONE))
                .maxDuration(Duration.ofSeconds(2))
                .build())
            .build()
            .execute(FlakyAction.failing(new ThrottledException(Duration.ofSeconds(3))));

        assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(this.clock.sleeps()).isEmpty();
    }

    @Test
    void callRetriesAFailedFirstAttemptExactlyAsExecuteDoes() throws Exception {
        CircuitBreaker breaker = CircuitBreaker.of("gateway", CircuitBreakerConfig.builder().minimumCalls(100).build(),
                this.clock);
        RetryBudget budget = new RetryBudget(1.0, 0, Duration.ofSeconds(10), this.clock);
        ResiliencePipeline pipeline = pipeline().retry(retry().budget(budget).build()).circuitBreaker(breaker).build();

        String value = pipeline.call(FlakyAction.failing(new IOException("1")));

        assertThat(value).isEqualTo("ok-2");
        assertThat(this.clock.sleeps()).containsExactly(Duration.ofMillis(100));
        assertThat(breaker.metrics().bufferedCalls()).isEqualTo(2);
        assertThat(breaker.metrics().failedCalls()).isEqualTo(1);
        assertThat(budget.callsInWindow()).isEqualTo(1);
        assertThat(budget.retriesInWindow()).isEqualTo(1);
    }

    @Test
    void callRefusedByTheBreakerFallsBackOrThrowsTheRefusal() throws Exception {
        CircuitBreaker breaker = CircuitBreaker.of("gateway", CircuitBreakerConfig.ofDefaults(), this.clock);
        breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        ResiliencePipeline.Builder guarded = pipeline().retry(retry().build()).circuitBreaker(breaker);

        String fallenBack = guarded.fallbacks(FallbackChain.of(FallbackHandler.of("cached", (error, call) -> "cached")))
            .build()
            .call(FlakyAction.failing());

        assertThat(fallenBack).isEqualTo("cached");
        assertThatExceptionOfType(CallNotPermittedException.class)
            .isThrownBy(() -> pipeline().circuitBreaker(breaker).build().call(FlakyAction.failing()));
        assertThat(breaker.metrics().notPermittedCallsTotal()).isEqualTo(2);
    }

    @Test
    void callRetriesAValueTheResultPredicateRejects() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        ResiliencePipeline pipeline = pipeline().retry(retry().retryOnResult("pending"::equals).build()).build();

        String value = pipeline.call(() -> (calls.incrementAndGet() < 2) ? "pending" : "done");

        assertThat(value).isEqualTo("done");
        assertThat(calls).hasValue(2);
    }

    @Test
    void errorsThrownByTheActionPropagateAsThrown() {
        ResiliencePipeline pipeline = pipeline().retry(retry().build()).build();
        AtomicInteger calls = new AtomicInteger();

        assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> pipeline.execute(() -> {
            calls.incrementAndGet();
            throw new AssertionError("bug");
        }));
        assertThat(calls).hasValue(1);
    }

    private static final class ThrottledException extends Exception implements RetryAfter {

        private final Duration retryAfter;

        ThrottledException(Duration retryAfter) {
            super("429 Too Many Requests");
            this.retryAfter = retryAfter;
        }

        @Override
        public Duration retryAfter() {
            return this.retryAfter;
        }

    }

}
