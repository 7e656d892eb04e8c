package dev.resilience.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.time.ScheduledTask;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Review findings on hedged attempts ({@link HedgeRace}, {@link SyncHedges},
 * {@link AsyncHedges}): what becomes of a race when a guard's result predicate throws an
 * {@link Error}, when the executor drops a try's step after its pass came, and when a
 * try's timeout timer cannot be scheduled.
 */
class HedgeRaceReviewTests {

    private static final long BOUND = 10;

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final List<CompletableFuture<String>> tries = Collections.synchronizedList(new ArrayList<>());

    private final ExecutorService threads = Executors.newCachedThreadPool();

    private final CountDownLatch never = new CountDownLatch(1);

    @AfterEach
    void stopThreads() {
        this.never.countDown();
        this.threads.shutdownNow();
    }

    private CompletableFuture<String> stalled() {
        CompletableFuture<String> stage = new CompletableFuture<>();
        this.tries.add(stage);
        return stage;
    }

    private CircuitBreaker breakerBrokenBy(String poison) {
        return CircuitBreaker.of("quotes", CircuitBreakerConfig.builder().failOnResult((value) -> {
            if (poison.equals(value)) {
                throw new AssertionError("predicate broke");
            }
            return false;
        }).build(), this.clock);
    }

    /**
     * Shows that when the breaker's result predicate throws an {@link Error} on a hedge's
     * value, the race is never decided: the returned future never completes (DESIGN 11: a
     * returned future always completes; an Error is rethrown as it is) and the first try
     * is never stopped.
     */
    @Test
    void anErrorFromAResultPredicateOnAHedgesValueStillCompletesTheAsynchronousCall() {
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quotes")
            .timeSource(this.clock)
            .executor(Runnable::run)
            .hedging(HedgingPolicy.of(Duration.ofMillis(50), 1))
            .circuitBreaker(breakerBrokenBy("hedge"))
            .build();
        CompletableFuture<ExecutionResult<String>> call = pipeline.executeAsync(CallContext.empty(), this::stalled);
        this.clock.advance(Duration.ofMillis(50));
        assertThat(this.tries).hasSize(2);

        this.tries.get(1).complete("hedge");

        assertThat(call).as("the call ends with the predicate's Error").isCompletedExceptionally();
        assertThat(this.tries.get(0)).as("the first try, outrun, is stopped").isCancelled();
    }

    /**
     * Shows that when the breaker's result predicate throws an {@link Error} on the value
     * of a hedge running on the executor, the race is never decided: the Error is lost in
     * the executor's task, the first try is not stopped, and the synchronous caller waits
     * for the race for ever.
     */
    @Test
    void anErrorFromAResultPredicateOnAHedgesValueStillEndsTheSynchronousCall() throws Exception {
        CountDownLatch firstStopped = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quotes")
            .timeSource(this.clock)
            .executor(this.threads)
            .hedging(HedgingPolicy.of(Duration.ofMillis(50), 1))
            .circuitBreaker(breakerBrokenBy("hedge"))
            .build();

        Future<Object> call = this.threads.submit(() -> pipeline.call(() -> {
            if (started.incrementAndGet() == 1) {
                this.clock.advance(Duration.ofMillis(50));
                try {
                    this.never.await();
                }
                catch (InterruptedException ex) {
                    firstStopped.countDown();
                    throw ex;
                }
                return "first";
            }
            return "hedge";
        }));

        assertThat(firstStopped.await(BOUND, TimeUnit.SECONDS)).as("the outrun first try was stopped").isTrue();
        assertThatThrownBy(() -> call.get(BOUND, TimeUnit.SECONDS)).as("the call ends with the predicate's Error")
            .hasCauseInstanceOf(AssertionError.class);
    }

    /**
     * Shows that when the breaker's result predicate throws an {@link Error} on the first
     * try's value, the Error reaches the caller but the hedge running beside it is never
     * stopped (ResiliencePipeline.Builder#hedging: the first value wins and the other
     * tries are stopped).
     */
    @Test
    void anErrorFromAResultPredicateOnTheFirstTrysValueStillStopsTheRunningHedge() throws Exception {
        CountDownLatch hedgeRunning = new CountDownLatch(1);
        CountDownLatch hedgeInterrupted = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quotes")
            .timeSource(this.clock)
            .executor(this.threads)
            .hedging(HedgingPolicy.of(Duration.ofMillis(50), 1))
            .circuitBreaker(breakerBrokenBy("first"))
            .build();

        assertThatThrownBy(() -> pipeline.call(() -> {
            if (started.incrementAndGet() == 1) {
                this.clock.advance(Duration.ofMillis(50));
                assertThat(hedgeRunning.await(BOUND, TimeUnit.SECONDS)).isTrue();
                return "first";
            }
            hedgeRunning.countDown();
            try {
                this.never.await();
            }
            catch (InterruptedException ex) {
                hedgeInterrupted.countDown();
                throw ex;
            }
            return "hedge";
        })).isInstanceOf(AssertionError.class).hasMessage("predicate broke");

        assertThat(hedgeInterrupted.await(BOUND, TimeUnit.SECONDS)).as("the outrun hedge was stopped").isTrue();
    }

    /**
     * Shows that when a try's pass comes after a wait (here the bulkhead's queue) and the
     * executor then drops the step that would take it (a shut-down executor cancelling
     * its queue), the pass is never given back: the bulkhead keeps a permit forever
     * (DESIGN 11: a permit taken by the call is always given back).
     */
    @Test
    void aTryWhosePassCameButWhoseStepTheExecutorDroppedGivesThePassBack() throws Exception {
        Bulkhead bulkhead = Bulkhead.of("quotes",
                BulkheadConfig.builder().maxConcurrentCalls(1).maxWait(Duration.ofSeconds(1)).build(), this.clock);
        List<Runnable> queued = new ArrayList<>();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quotes")
            .timeSource(this.clock)
            .executor(queued::add)
            .hedging(HedgingPolicy.of(Duration.ofMillis(50), 1))
            .bulkhead(bulkhead)
            .build();
        Bulkhead.Permit held = bulkhead.acquire();
        CompletableFuture<ExecutionResult<String>> call = pipeline.executeAsync(CallContext.empty(), this::stalled);
        assertThat(bulkhead.waitingCalls()).isEqualTo(1);

        bulkhead.onSuccess(held, 1);
        assertThat(queued).as("the step that takes the first try's permit").hasSize(1);
        ((Future<?>) queued.remove(0)).cancel(false);
        while (!queued.isEmpty()) {
            queued.remove(0).run();
        }

        assertThat(call).isDone();
        assertThat(this.tries).as("no try ran").isEmpty();
        assertThat(bulkhead.concurrentCalls()).as("permits still out once the call ended").isZero();
    }

    /**
     * Shows that a synchronous try whose attempt timeout cannot be scheduled (the timer
     * refuses the task) is recorded by the breaker as a failure although the action never
     * ran; an unhedged attempt gives its pass back in that case (SyncExecution#attempt),
     * as a refusal of the machinery is no outcome of the protected service.
     */
    @Test
    void aSynchronousTryWhoseTimeoutCannotBeScheduledIsNotRecordedByTheBreaker() {
        CircuitBreaker breaker = CircuitBreaker.of("quotes", CircuitBreakerConfig.ofDefaults(), this.clock);
        AtomicInteger ran = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quotes")
            .timeSource(new RefusingTimer(this.clock))
            .executor(Runnable::run)
            .hedging(HedgingPolicy.of(Duration.ofMillis(50), 1))
            .timeLimit(Duration.ofSeconds(1))
            .circuitBreaker(breaker)
            .build();

        ExecutionResult<String> result = pipeline.execute(() -> {
            ran.incrementAndGet();
            return "never";
        });

        assertThat(result.error()).isInstanceOf(RejectedExecutionException.class);
        assertThat(ran).hasValue(0);
        assertThat(breaker.metrics().failedCallsTotal()).as("failures the breaker recorded").isZero();
    }

    /** A timer that refuses the tasks of {@link #schedule}, as one shut down does. */
    static final class RefusingTimer extends DelegatingTimer {

        RefusingTimer(VirtualTimeSource clock) {
            super(clock);
        }

        @Override
        public ScheduledTask schedule(Runnable task, Duration delay) {
            throw new RejectedExecutionException("timer shut down");
        }

        @Override
        public ScheduledTask scheduleHandOff(Runnable task, Duration delay) {
            return this.clock.schedule(task, delay);
        }

    }

}
