package dev.resilience.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.bulkhead.BulkheadType;
import dev.resilience.core.bulkhead.LimitAlgorithm;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A bulkhead in an asynchronous pipeline: an attempt holds its permit until its stage
 * completes; a call beyond the limit waits without a thread, started by the call that
 * gives a permit back or refused by the timer at the end of its wait; a cancelled call
 * gives its permit, or its place in the queue, back exactly once.
 */
class BulkheadAsyncPipelineTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final Bulkhead bulkhead = Bulkhead.of("inventory",
            BulkheadConfig.builder().maxConcurrentCalls(1).maxWait(Duration.ofSeconds(1)).build(), this.clock);

    private final List<CompletableFuture<String>> stages = new ArrayList<>();

    private final AtomicInteger started = new AtomicInteger();

    private ResiliencePipeline.Builder pipeline() {
        return ResiliencePipeline.builder("inventory").timeSource(this.clock).bulkhead(this.bulkhead);
    }

    private CompletableFuture<String> attempt() {
        this.started.incrementAndGet();
        CompletableFuture<String> stage = new CompletableFuture<>();
        this.stages.add(stage);
        return stage;
    }

    @Test
    void anAttemptHoldsItsPermitUntilItsStageCompletes() {
        CompletableFuture<ExecutionResult<String>> call = pipeline().build()
            .executeAsync(CallContext.empty(), this::attempt);

        assertThat(this.bulkhead.concurrentCalls()).isEqualTo(1);
        this.stages.get(0).complete("ok");

        assertThat(call.join().value()).isEqualTo("ok");
        assertThat(this.bulkhead.concurrentCalls()).isZero();
    }

    @Test
    void aCallBeyondTheLimitWaitsWithoutBlockingItsCallerAndStartsWhenAPermitComesBack() {
        ResiliencePipeline pipeline = pipeline().build();
        CompletableFuture<ExecutionResult<String>> first = pipeline.executeAsync(CallContext.empty(), this::attempt);

        CompletableFuture<ExecutionResult<String>> second = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> pipeline.executeAsync(CallContext.empty(), this::attempt),
                "a waiting asynchronous call must not block its caller");

        assertThat(second).isNotDone();
        assertThat(this.started).hasValue(1);
        assertThat(this.bulkhead.waitingCalls()).isEqualTo(1);
        this.stages.get(0).complete("first");
        assertThat(first.join().value()).isEqualTo("first");
        assertThat(this.started).as("started by the call that gave its permit back").hasValue(2);
        assertThat(this.bulkhead.concurrentCalls()).isEqualTo(1);
        this.stages.get(1).complete("second");
        assertThat(second.join().value()).isEqualTo("second");
        assertThat(this.bulkhead.concurrentCalls()).isZero();
        assertThat(this.bulkhead.permittedCalls()).isEqualTo(2);
    }

    @Test
    void aWaitThatOutlivesMaxWaitIsRejectedAndGoesToTheFallbacks() {
        ResiliencePipeline pipeline = pipeline().retry(RetryPolicy.builder().maxAttempts(3).build())
            .fallbacks(FallbackChain
                .of(FallbackHandler.of("cached", BulkheadFullException.class, (error, call) -> "cached")))
            .build();
        pipeline.executeAsync(CallContext.empty(), this::attempt);
        CompletableFuture<ExecutionResult<String>> second = pipeline.executeAsync(CallContext.empty(), this::attempt);

        this.clock.advance(Duration.ofMillis(999));
        assertThat(second).isNotDone();
        this.clock.advance(Duration.ofMillis(1));

        ExecutionResult<String> result = second.join();
        assertThat(result.value()).isEqualTo("cached");
        assertThat(result.attempts()).isZero();
        assertThat(this.started).hasValue(1);
        assertThat(this.bulkhead.rejectedCalls()).isEqualTo(1);
        assertThat(this.bulkhead.waitingCalls()).isZero();
    }

    @Test
    void withoutAFallbackAnAsynchronousRefusalEndsRejectedAndTheBreakerDoesNotCountIt() {
        CircuitBreaker breaker = CircuitBreaker.of("inventory",
                CircuitBreakerConfig.builder().slidingWindowSize(1).minimumCalls(1).build(), this.clock);
        ResiliencePipeline pipeline = pipeline().circuitBreaker(breaker).build();
        pipeline.executeAsync(CallContext.empty(), this::attempt);
        CompletableFuture<ExecutionResult<String>> second = pipeline.executeAsync(CallContext.empty(), this::attempt);

        this.clock.advance(Duration.ofSeconds(1));

        assertThat(second.join().status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(second.join().error()).isInstanceOf(BulkheadFullException.class);
        assertThat(breaker.metrics().failedCallsTotal()).isZero();
        this.stages.get(0).complete("first");
        assertThat(breaker.metrics().successfulCallsTotal()).isEqualTo(1);
    }

    @Test
    void aCallCancelledWhileWaitingGivesUpItsPlaceAndNeverStarts() {
        ResiliencePipeline pipeline = pipeline().build();
        CompletableFuture<ExecutionResult<String>> first = pipeline.executeAsync(CallContext.empty(), this::attempt);
        CompletableFuture<ExecutionResult<String>> second = pipeline.executeAsync(CallContext.empty(), this::attempt);

        second.cancel(true);
        assertThat(this.bulkhead.waitingCalls()).isZero();
        this.stages.get(0).complete("first");

        assertThat(first.join().value()).isEqualTo("first");
        assertThat(this.started).hasValue(1);
        assertThat(this.bulkhead.concurrentCalls()).isZero();
        assertThat(this.clock.pendingTasks()).as("the wait's timer is cancelled").isZero();
    }

    @Test
    void aCallCancelledWhileWaitingGivesUpItsPlaceEvenWhenTheExecutorDropsTheCancellation() {
        List<Runnable> queued = new ArrayList<>();
        ResiliencePipeline pipeline = pipeline().executor(queued::add).build();
        CompletableFuture<ExecutionResult<String>> first = pipeline.executeAsync(CallContext.empty(), this::attempt);
        CompletableFuture<ExecutionResult<String>> second = pipeline.executeAsync(CallContext.empty(), this::attempt);
        assertThat(this.bulkhead.waitingCalls()).isEqualTo(1);

        second.cancel(true);
        assertThat(queued).as("the cancellation of the wait, handed to the executor").hasSize(1);
        Runnable dropped = queued.remove(0);
        if (dropped instanceof Future<?> task) {
            task.cancel(false);
        }

        assertThat(this.bulkhead.waitingCalls()).as("calls still waiting").isZero();
        this.stages.get(0).complete("first");
        while (!queued.isEmpty()) {
            queued.remove(0).run();
        }
        assertThat(first.join().value()).isEqualTo("first");
        assertThat(this.started).hasValue(1);
        assertThat(this.bulkhead.concurrentCalls()).isZero();
        assertThat(this.clock.pendingTasks()).as("the wait's timer is cancelled").isZero();
    }

    @Test
    void aCallCancelledWhileRunningGivesItsPermitBackExactlyOnce() {
        ResiliencePipeline pipeline = pipeline().build();
        AtomicInteger outcomes = new AtomicInteger();
        CompletableFuture<ExecutionResult<String>> first = pipeline
            .executeAsync(CallContext.empty().withListener(new ExecutionListener() {
                @Override
                public void onComplete(String name, ExecutionResult<?> result) {
                    outcomes.incrementAndGet();
                    assertThat(result.error()).isInstanceOf(CancellationException.class);
                }
            }), this::attempt);

        first.cancel(true);
        assertThat(this.stages.get(0)).isCancelled();
        assertThat(this.bulkhead.concurrentCalls()).isZero();
        CompletableFuture<ExecutionResult<String>> second = pipeline.executeAsync(CallContext.empty(), this::attempt);
        this.stages.get(0).completeExceptionally(new IllegalStateException("late"));

        assertThat(this.bulkhead.concurrentCalls()).as("the second call's permit only").isEqualTo(1);
        this.stages.get(1).complete("second");
        assertThat(second.join().value()).isEqualTo("second");
        assertThat(this.bulkhead.concurrentCalls()).isZero();
        assertThat(outcomes).hasValue(1);
    }

    @Test
    void callsWaitingForAPermitStartInTheOrderTheyArrived() {
        ResiliencePipeline pipeline = pipeline().build();
        List<Integer> startOrder = new ArrayList<>();
        List<CompletableFuture<ExecutionResult<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int arrival = i;
            calls.add(pipeline.executeAsync(CallContext.empty(), () -> {
                startOrder.add(arrival);
                return attempt();
            }));
        }
        assertThat(this.bulkhead.waitingCalls()).isEqualTo(3);

        for (int i = 0; i < 4; i++) {
            this.stages.get(i).complete("call" + i);
        }

        assertThat(startOrder).containsExactly(0, 1, 2, 3);
        for (int i = 0; i < 4; i++) {
            assertThat(calls.get(i).join().value()).isEqualTo("call" + i);
        }
        assertThat(this.bulkhead.permittedCalls()).isEqualTo(4);
    }

    @Test
    void sixtyFourAsynchronousCallsOnRealThreadsThroughABulkheadOfEightAllRunAndNeverMoreThanEightAtOnce()
            throws Exception {
        Bulkhead eight = Bulkhead.of("inventory",
                BulkheadConfig.builder().maxConcurrentCalls(8).maxWait(Duration.ofMinutes(1)).build());
        ExecutorService executor = Executors.newFixedThreadPool(4);
        ExecutorService completers = Executors.newFixedThreadPool(8);
        try {
            ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
                .executor(executor)
                .bulkhead(eight)
                .build();
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger peak = new AtomicInteger();
            List<CompletableFuture<ExecutionResult<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                calls.add(pipeline.executeAsync(CallContext.empty(), () -> {
                    peak.accumulateAndGet(inside.incrementAndGet(), Math::max);
                    return CompletableFuture.supplyAsync(() -> {
                        inside.decrementAndGet();
                        return "ok";
                    }, completers);
                }));
            }

            for (CompletableFuture<ExecutionResult<String>> call : calls) {
                assertThat(call.get(30, TimeUnit.SECONDS).value()).isEqualTo("ok");
            }
            assertThat(peak.get()).isBetween(1, 8);
            assertThat(eight.permittedCalls()).isEqualTo(64);
            assertThat(eight.rejectedCalls()).isZero();
            assertThat(eight.concurrentCalls()).isZero();
            assertThat(eight.waitingCalls()).isZero();
        }
        finally {
            executor.shutdownNow();
            completers.shutdownNow();
        }
    }

    @Test
    void aCallCancelledWhileWaitingGivesTheGuardsBeforeTheBulkheadTheirPassesBack() {
        CountingGuardTests.CallQuota quota = new CountingGuardTests.CallQuota(100);
        ResiliencePipeline pipeline = pipeline()
            .guard(CountingGuardTests.CallQuotaStage.class,
                    new CountingGuardTests.CallQuotaStage(quota, AttemptGuard.RATE_LIMITER))
            .build();
        pipeline.executeAsync(CallContext.empty(), this::attempt);
        CompletableFuture<ExecutionResult<String>> second = pipeline.executeAsync(CallContext.empty(), this::attempt);

        second.cancel(true);
        this.stages.get(0).complete("first");

        assertThat(quota.counts()).as("admitted, succeeded, failed, abandoned").containsExactly(2L, 1L, 0L, 1L);
        assertThat(this.started).hasValue(1);
        assertThat(this.bulkhead.concurrentCalls()).isZero();
    }

    @ParameterizedTest
    @EnumSource(LimitAlgorithm.class)
    void anAdaptiveLimitFallsWhenTheActionsLatencyRisesTenfoldAndRecovers(LimitAlgorithm algorithm) {
        Bulkhead adaptive = Bulkhead.of("adaptive",
                BulkheadConfig.builder()
                    .type(BulkheadType.ADAPTIVE)
                    .algorithm(algorithm)
                    .maxConcurrentCalls(20)
                    .minLimit(2)
                    .maxLimit(40)
                    .latencyThreshold(Duration.ofMillis(50))
                    .build(),
                this.clock);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("adaptive")
            .timeSource(this.clock)
            .bulkhead(adaptive)
            .build();

        List<Integer> healthy = rounds(pipeline, adaptive, Duration.ofMillis(10), 20);
        List<Integer> overloaded = rounds(pipeline, adaptive, Duration.ofMillis(100), 10);
        List<Integer> recovered = rounds(pipeline, adaptive, Duration.ofMillis(10), 30);

        assertThat(healthy.get(healthy.size() - 1)).isEqualTo(40);
        assertThat(Collections.min(overloaded)).isLessThanOrEqualTo(20);
        assertThat(recovered.get(recovered.size() - 1)).isEqualTo(40);
    }

    /**
     * Runs rounds of as many calls as the limit allows at once, whose stages complete
     * after the latency on the virtual clock.
     * @return the limit after each round
     */
    private List<Integer> rounds(ResiliencePipeline pipeline, Bulkhead adaptive, Duration latency, int count) {
        List<Integer> limits = new ArrayList<>();
        for (int round = 0; round < count; round++) {
            List<CompletableFuture<ExecutionResult<String>>> calls = new ArrayList<>();
            int limit = adaptive.limit();
            for (int i = 0; i < limit; i++) {
                calls.add(pipeline.executeAsync(CallContext.empty(), () -> {
                    CompletableFuture<String> stage = new CompletableFuture<>();
                    this.clock.schedule(() -> stage.complete("ok"), latency);
                    return stage;
                }));
            }
            this.clock.advance(latency);
            assertThat(calls).allSatisfy((call) -> assertThat(call.join().value()).isEqualTo("ok"));
            assertThat(adaptive.limit()).isBetween(2, 40);
            limits.add(adaptive.limit());
        }
        return limits;
    }

}
