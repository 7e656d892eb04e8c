package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.hedging.HedgeEvent;
import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hedged asynchronous attempts on the virtual clock: a hedge starts {@code delay} after
 * an attempt's first try began unanswered, the first value wins and the other tries'
 * stages are cancelled, every try passes the guards on its own, and the retry stage sees
 * one attempt per race.
 */
class HedgingAsyncPipelineTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final List<CompletableFuture<String>> tries = Collections.synchronizedList(new ArrayList<>());

    private final List<HedgeEvent> events = Collections.synchronizedList(new ArrayList<>());

    private final List<ExecutionResult<?>> results = Collections.synchronizedList(new ArrayList<>());

    private final CircuitBreaker breaker = CircuitBreaker.of("quotes",
            CircuitBreakerConfig.builder().slidingWindowSize(100).minimumCalls(100).build(), this.clock);

    private ResiliencePipeline.Builder pipeline(int maxHedges) {
        return ResiliencePipeline.builder("quotes")
            .timeSource(this.clock)
            .executor(Runnable::run)
            .hedging(HedgingPolicy.of(Duration.ofMillis(50), maxHedges))
            .circuitBreaker(this.breaker)
            .listener(new ExecutionListener() {
                @Override
                public void onHedge(String name, HedgeEvent event) {
                    HedgingAsyncPipelineTests.this.events.add(event);
                }

                @Override
                public void onComplete(String name, ExecutionResult<?> result) {
                    HedgingAsyncPipelineTests.this.results.add(result);
                }
            });
    }

    private CompletionStage<String> stalled() {
        CompletableFuture<String> stage = new CompletableFuture<>();
        this.tries.add(stage);
        return stage;
    }

    /** A try that fails 80ms after it started. */
    private CompletionStage<String> failingAfter80ms() {
        CompletableFuture<String> stage = new CompletableFuture<>();
        int number = this.tries.size() + 1;
        this.tries.add(stage);
        this.clock.schedule(() -> stage.completeExceptionally(new IOException("try " + number)), Duration.ofMillis(80));
        return stage;
    }

    private CompletableFuture<ExecutionResult<String>> start(ResiliencePipeline pipeline) {
        return pipeline.executeAsync(CallContext.empty(), this::stalled);
    }

    @Test
    void afterTheDelayExactlyOneHedgeStartsAndItsValueWinsWhileTheFirstTrysStageIsCancelled() {
        CompletableFuture<ExecutionResult<String>> call = start(pipeline(1).build());

        this.clock.advance(Duration.ofMillis(49));
        assertThat(this.tries).hasSize(1);
        this.clock.advance(Duration.ofMillis(1));
        assertThat(this.tries).hasSize(2);
        this.clock.advance(Duration.ofSeconds(1));
        assertThat(this.tries).as("one hedge at most").hasSize(2);
        this.tries.get(1).complete("hedge");

        ExecutionResult<String> result = call.join();
        assertThat(result.value()).isEqualTo("hedge");
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(this.tries.get(0)).isCancelled();
        assertThat(this.events).containsExactly(new HedgeEvent(1, 1));
        assertThat(this.events.get(0).hedgeWon()).isTrue();
        assertThat(this.events.get(0).hedgesLost()).isZero();
        assertThat(this.breaker.metrics().successfulCallsTotal()).isEqualTo(1);
        assertThat(this.breaker.metrics().failedCallsTotal()).as("the cancelled loser is not a failure").isZero();
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void withTwoHedgesTheSecondStartsAnotherDelayLater() {
        CompletableFuture<ExecutionResult<String>> call = start(pipeline(2).build());

        this.clock.advance(Duration.ofMillis(50));
        assertThat(this.tries).hasSize(2);
        this.clock.advance(Duration.ofMillis(49));
        assertThat(this.tries).hasSize(2);
        this.clock.advance(Duration.ofMillis(1));
        assertThat(this.tries).hasSize(3);
        this.clock.advance(Duration.ofSeconds(1));
        assertThat(this.tries).hasSize(3);
        this.tries.get(2).complete("second hedge");

        assertThat(call.join().value()).isEqualTo("second hedge");
        assertThat(this.tries.get(0)).isCancelled();
        assertThat(this.tries.get(1)).isCancelled();
        assertThat(this.events).containsExactly(new HedgeEvent(2, 2));
        assertThat(this.events.get(0).hedgesLost()).isEqualTo(1);
    }

    @Test
    void aFirstTryAnsweringBeforeTheDelayStartsNoHedge() {
        CompletableFuture<ExecutionResult<String>> call = start(pipeline(2).build());

        this.clock.advance(Duration.ofMillis(49));
        this.tries.get(0).complete("first");
        this.clock.advance(Duration.ofSeconds(1));

        assertThat(call.join().value()).isEqualTo("first");
        assertThat(this.tries).hasSize(1);
        assertThat(this.events).containsExactly(new HedgeEvent(HedgeEvent.PRIMARY, 0));
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void whenEveryTryFailsTheAttemptFailsWithTheLastFailureAndTheRetryStageRetriesIt() {
        ResiliencePipeline pipeline = pipeline(1)
            .retry(RetryPolicy.builder()
                .maxAttempts(2)
                .backoff(Backoff.of(Duration.ofMillis(100), 1.0, Duration.ofMillis(100), Jitter.NONE))
                .build())
            .build();
        CompletableFuture<ExecutionResult<String>> call = pipeline.executeAsync(CallContext.empty(),
                this::failingAfter80ms);

        this.clock.advance(Duration.ofMillis(129));
        assertThat(this.tries).as("the first try failed at 80ms, the hedge still runs").hasSize(2);
        assertThat(call).isNotDone();
        this.clock.advance(Duration.ofMillis(1));
        assertThat(this.tries).hasSize(2);
        this.clock.advance(Duration.ofMillis(100));
        assertThat(this.tries).as("the retry after its backoff").hasSize(3);
        this.clock.advance(Duration.ofMillis(130));

        ExecutionResult<String> result = call.join();
        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.attempts()).isEqualTo(2);
        assertThat(this.tries).hasSize(4);
        assertThat(result.error()).hasMessage("try 4");
        assertThat(result.attemptFailures()).extracting((failure) -> failure.error().getMessage())
            .containsExactly("try 2", "try 4");
        assertThat(this.breaker.metrics().failedCallsTotal()).as("every try's failure").isEqualTo(4);
        assertThat(this.events).containsExactly(new HedgeEvent(HedgeEvent.NONE, 1), new HedgeEvent(HedgeEvent.NONE, 1));
        assertThat(this.clock.elapsed()).isEqualTo(Duration.ofMillis(360));
    }

    @Test
    void aValueTheRetryPolicyRejectsDoesNotWinTheRaceWhileAnotherTryRunsWhichThenWins() {
        ResiliencePipeline pipeline = pipeline(1)
            .retry(RetryPolicy.builder().maxAttempts(2).backoff(Backoff.none()).retryOnResult("empty"::equals).build())
            .build();
        CompletableFuture<ExecutionResult<String>> call = start(pipeline);
        this.clock.advance(Duration.ofMillis(50));

        this.tries.get(0).complete("empty");
        assertThat(call).as("the hedge may still answer").isNotDone();
        assertThat(this.tries.get(1)).isNotCancelled();
        this.tries.get(1).complete("full");

        ExecutionResult<String> result = call.join();
        assertThat(result.value()).isEqualTo("full");
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(this.tries).hasSize(2);
        assertThat(this.events).containsExactly(new HedgeEvent(1, 1));
        assertThat(this.breaker.metrics().successfulCallsTotal()).as("both values, as the breaker judges them")
            .isEqualTo(2);
    }

    @Test
    void whenEveryTryReturnsARejectedValueTheAttemptEndsWithTheLastAndTheRetryStageRetriesIt() {
        ResiliencePipeline pipeline = pipeline(1)
            .retry(RetryPolicy.builder().maxAttempts(2).backoff(Backoff.none()).retryOnResult("empty"::equals).build())
            .build();
        CompletableFuture<ExecutionResult<String>> call = start(pipeline);
        this.clock.advance(Duration.ofMillis(50));
        this.tries.get(1).complete("empty");
        this.tries.get(0).complete("empty");
        assertThat(this.tries).as("the retry's first try").hasSize(3);
        this.tries.get(2).complete("empty");

        ExecutionResult<String> result = call.join();
        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.error()).isInstanceOf(RejectedResultException.class);
        assertThat(result.attempts()).isEqualTo(2);
        assertThat(this.events).containsExactly(new HedgeEvent(HedgeEvent.NONE, 1), new HedgeEvent(HedgeEvent.NONE, 0));
    }

    @Test
    void theBreakerHearsEveryTryThatEndedBeforeTheWinnerAndNotTheLosersAfterIt() {
        ResiliencePipeline pipeline = pipeline(2).build();
        CompletableFuture<ExecutionResult<String>> call = pipeline.executeAsync(CallContext.empty(), this::stalled);

        this.clock.advance(Duration.ofMillis(80));
        this.tries.get(0).completeExceptionally(new IOException("first"));
        this.clock.advance(Duration.ofMillis(20));
        assertThat(this.tries).hasSize(3);
        this.tries.get(2).complete("second hedge");

        assertThat(call.join().value()).isEqualTo("second hedge");
        assertThat(this.tries.get(1)).isCancelled();
        assertThat(this.breaker.metrics().failedCallsTotal()).isEqualTo(1);
        assertThat(this.breaker.metrics().successfulCallsTotal()).isEqualTo(1);
        assertThat(this.events).containsExactly(new HedgeEvent(2, 2));
    }

    @Test
    void aBulkheadOfOneRefusesTheHedgeAndTheRaceGoesOnWithTheFirstTry() {
        Bulkhead bulkhead = Bulkhead.of("quotes", BulkheadConfig.builder().maxConcurrentCalls(1).build(), this.clock);
        CompletableFuture<ExecutionResult<String>> call = start(pipeline(1).bulkhead(bulkhead).build());

        this.clock.advance(Duration.ofMillis(60));
        assertThat(bulkhead.rejectedCalls()).isEqualTo(1);
        assertThat(call).isNotDone();
        this.tries.get(0).complete("first");

        ExecutionResult<String> result = call.join();
        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.value()).isEqualTo("first");
        assertThat(this.tries).hasSize(1);
        assertThat(this.events).containsExactly(new HedgeEvent(HedgeEvent.PRIMARY, 0));
        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(this.breaker.metrics().successfulCallsTotal()).isEqualTo(1);
        assertThat(this.breaker.metrics().failedCallsTotal() + this.breaker.metrics().notPermittedCallsTotal())
            .isZero();
    }

    @Test
    void eachTryHasItsOwnAttemptTimeout() {
        ResiliencePipeline pipeline = pipeline(1)
            .retry(RetryPolicy.builder().maxAttempts(1).attemptTimeout(Duration.ofMillis(80)).build())
            .build();
        CompletableFuture<ExecutionResult<String>> call = pipeline.executeAsync(CallContext.empty(), this::stalled);

        this.clock.advance(Duration.ofMillis(80));
        assertThat(this.tries.get(0)).as("timed out").isCancelled();
        assertThat(call).isNotDone();
        this.clock.advance(Duration.ofMillis(20));
        this.tries.get(1).complete("hedge");

        assertThat(call.join().value()).isEqualTo("hedge");
        assertThat(this.breaker.metrics().failedCallsTotal()).isEqualTo(1);
        this.clock.advance(Duration.ofSeconds(1));
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void aTryWhoseTimeoutCannotBeScheduledIsStoppedAndGivesItsPassBackUnrecorded() {
        ResiliencePipeline pipeline = pipeline(1).timeSource(new RejectingTimer(this.clock))
            .timeLimit(Duration.ofSeconds(1))
            .build();

        ExecutionResult<String> result = start(pipeline).join();

        assertThat(result.error()).isInstanceOf(RejectedExecutionException.class);
        assertThat(this.tries).singleElement().satisfies((stage) -> assertThat(stage).isCancelled());
        assertThat(this.breaker.metrics().failedCallsTotal()).as("failures the breaker recorded").isZero();
        assertThat(this.breaker.metrics().successfulCallsTotal()).isZero();
    }

    @Test
    void aHedgeNeverOutlivesTheCallsDeadline() {
        ResiliencePipeline pipeline = pipeline(1)
            .retry(RetryPolicy.builder().maxAttempts(3).maxDuration(Duration.ofMillis(120)).build())
            .build();
        CompletableFuture<ExecutionResult<String>> call = pipeline.executeAsync(CallContext.empty(), this::stalled);

        this.clock.advance(Duration.ofMillis(119));
        assertThat(this.tries).hasSize(2);
        assertThat(call).isNotDone();
        this.clock.advance(Duration.ofMillis(1));

        ExecutionResult<String> result = call.join();
        assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(this.tries).hasSize(2).allSatisfy((stage) -> assertThat(stage).isCancelled());
        assertThat(this.breaker.metrics().failedCallsTotal()).as("both tries timed out").isEqualTo(2);
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void aFirstTryAdmittedOnlyAfterTheCallsDeadlineDoesNotStartAndTheCallTimesOut() {
        RateLimiter limiter = RateLimiter.of("quotes",
                RateLimiterConfig.builder()
                    .limit(1)
                    .period(Duration.ofSeconds(2))
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                this.clock);
        assertThat(limiter.tryAcquire()).isZero();
        ResiliencePipeline pipeline = pipeline(1).rateLimiter(limiter)
            .retry(RetryPolicy.builder().maxAttempts(1).maxDuration(Duration.ofSeconds(1)).build())
            .build();

        CompletableFuture<ExecutionResult<String>> call = start(pipeline);
        this.clock.advance(Duration.ofSeconds(2));

        assertThat(call).as("ended once the permit came").isDone();
        ExecutionResult<String> result = call.join();
        assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(result.error()).isInstanceOf(DeadlineExceededException.class);
        assertThat(result.attempts()).isZero();
        assertThat(this.tries).as("tries started").isEmpty();
        assertThat(this.breaker.metrics().successfulCallsTotal() + this.breaker.metrics().failedCallsTotal())
            .as("outcomes the breaker recorded")
            .isZero();
    }

    @Test
    void aHedgeAdmittedOnlyAfterTheCallsDeadlineDoesNotStartAndGivesItsPassesBack() {
        Bulkhead bulkhead = Bulkhead.of("quotes",
                BulkheadConfig.builder().maxConcurrentCalls(1).maxWait(Duration.ofSeconds(5)).build(), this.clock);
        ResiliencePipeline pipeline = pipeline(1).bulkhead(bulkhead)
            .retry(RetryPolicy.builder().maxAttempts(1).maxDuration(Duration.ofSeconds(1)).build())
            .build();
        CompletableFuture<ExecutionResult<String>> call = start(pipeline);
        this.clock.advance(Duration.ofMillis(50));
        assertThat(bulkhead.waitingCalls()).as("the hedge, waiting for the first try's permit").isEqualTo(1);

        this.clock.advance(Duration.ofMillis(950));

        assertThat(call).as("ended at the deadline").isDone();
        assertThat(call.join().status()).isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(this.tries).as("tries started").hasSize(1);
        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(this.breaker.metrics().failedCallsTotal()).as("the first try's timeout").isEqualTo(1);
        assertThat(this.events).containsExactly(new HedgeEvent(HedgeEvent.NONE, 0));
    }

    @Test
    void anOpenBreakerRefusesTheFirstTryAndTheCallIsRejectedWithoutARace() {
        this.breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);

        ExecutionResult<String> result = start(pipeline(1).build()).join();

        assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(result.error()).isInstanceOf(CallNotPermittedException.class);
        assertThat(result.attempts()).isZero();
        assertThat(this.tries).isEmpty();
        assertThat(this.events).isEmpty();
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void aHedgeTheExecutorRefusesIsNotStartedAndTheFirstTrysValueIsStillReturned() {
        ResiliencePipeline pipeline = pipeline(1).executor((task) -> {
            throw new RejectedExecutionException("saturated");
        }).build();
        CompletableFuture<ExecutionResult<String>> call = start(pipeline);

        this.clock.advance(Duration.ofMillis(50));
        assertThat(this.tries).hasSize(1);
        this.tries.get(0).complete("first");

        assertThat(call.join().value()).isEqualTo("first");
        assertThat(this.breaker.metrics().successfulCallsTotal()).isEqualTo(1);
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void aHedgeTheExecutorDropsUnrunStillLetsTheRaceEndWithTheFirstTrysFailure() {
        List<Runnable> queued = new ArrayList<>();
        CompletableFuture<ExecutionResult<String>> call = start(pipeline(1).executor(queued::add).build());
        this.clock.advance(Duration.ofMillis(50));
        assertThat(queued).as("the hedge, handed to the executor").hasSize(1);
        this.tries.get(0).completeExceptionally(new IOException("first"));
        assertThat(call).as("the hedge may still run").isNotDone();

        ((Future<?>) queued.remove(0)).cancel(false);
        while (!queued.isEmpty()) {
            queued.remove(0).run();
        }

        ExecutionResult<String> result = call.join();
        assertThat(result.error()).hasMessage("first");
        assertThat(this.tries).hasSize(1);
        assertThat(this.breaker.metrics().failedCallsTotal()).isEqualTo(1);
        assertThat(this.events).containsExactly(new HedgeEvent(HedgeEvent.NONE, 0));
    }

    @Test
    void cancellingTheReturnedFutureCancelsEveryRunningTryAndGivesTheirPassesBack() {
        Bulkhead bulkhead = Bulkhead.of("quotes", BulkheadConfig.builder().maxConcurrentCalls(5).build(), this.clock);
        CompletableFuture<ExecutionResult<String>> call = start(pipeline(2).bulkhead(bulkhead).build());
        this.clock.advance(Duration.ofMillis(100));
        assertThat(this.tries).hasSize(3);
        assertThat(bulkhead.concurrentCalls()).isEqualTo(3);

        call.cancel(true);

        assertThat(this.tries).allSatisfy((stage) -> assertThat(stage).isCancelled());
        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(this.breaker.metrics().failedCallsTotal()).isZero();
        assertThat(this.results).singleElement().satisfies((result) -> {
            assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(result.error()).isInstanceOf(CancellationException.class);
        });
        this.clock.advance(Duration.ofSeconds(1));
        assertThat(this.tries).hasSize(3);
        assertThat(this.clock.pendingTasks()).isZero();
    }

}
