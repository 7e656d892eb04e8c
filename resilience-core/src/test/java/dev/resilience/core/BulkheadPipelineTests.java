package dev.resilience.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerMetrics;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bulkhead in a synchronous pipeline (DESIGN sections 11 and 12): at most its limit of
 * attempts run at once; a call beyond it waits, or is REJECTED, never retried, sent to
 * the fallbacks and written as a dead letter; an interrupt ends its wait; and the breaker
 * around it counts none of its refusals. Waits never end on the virtual clock unless the
 * test advances it, so every count here is exact.
 */
class BulkheadPipelineTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final List<Thread> threads = new ArrayList<>();

    private final CountDownLatch gate = new CountDownLatch(1);

    private final AtomicInteger inside = new AtomicInteger();

    private final AtomicInteger peak = new AtomicInteger();

    @AfterEach
    void stopThreads() throws InterruptedException {
        this.gate.countDown();
        for (Thread thread : this.threads) {
            thread.interrupt();
            thread.join(10_000);
        }
    }

    private Bulkhead bulkhead(int limit, Duration maxWait) {
        return Bulkhead.of("inventory", BulkheadConfig.builder().maxConcurrentCalls(limit).maxWait(maxWait).build(),
                this.clock);
    }

    private String gatedAction() throws InterruptedException {
        int now = this.inside.incrementAndGet();
        this.peak.accumulateAndGet(now, Math::max);
        try {
            this.gate.await();
            return "ok";
        }
        finally {
            this.inside.decrementAndGet();
        }
    }

    @Test
    void sixtyFourCallsThroughABulkheadOfEightThatWaitsAllRunAndNeverMoreThanEightAtOnce() throws Exception {
        Bulkhead bulkhead = bulkhead(8, Duration.ofMinutes(1));
        ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(this.clock)
            .bulkhead(bulkhead)
            .build();
        List<ExecutionResult<String>> results = callInThreads(pipeline, 64);

        awaitValue(this.inside::get, 8);
        awaitValue(bulkhead::waitingCalls, 56);
        assertThat(this.peak).hasValue(8);
        this.gate.countDown();
        joinThreads();

        assertThat(results).hasSize(64).allSatisfy((result) -> assertThat(result.value()).isEqualTo("ok"));
        assertThat(this.peak).hasValue(8);
        assertThat(bulkhead.permittedCalls()).isEqualTo(64);
        assertThat(bulkhead.rejectedCalls()).isZero();
        assertThat(bulkhead.concurrentCalls()).isZero();
    }

    @Test
    void sixtyFourCallsThroughABulkheadOfEightThatDoesNotWaitRunEightAndRejectTheRest() throws Exception {
        Bulkhead bulkhead = bulkhead(8, Duration.ZERO);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(this.clock)
            .bulkhead(bulkhead)
            .build();
        List<ExecutionResult<String>> first = callInThreads(pipeline, 8);
        awaitValue(this.inside::get, 8);

        List<ExecutionResult<String>> rest = callInThreads(pipeline, 56);
        awaitValue(() -> rest.size(), 56);
        this.gate.countDown();
        joinThreads();

        assertThat(first).hasSize(8).allSatisfy((result) -> assertThat(result.value()).isEqualTo("ok"));
        assertThat(rest).hasSize(56).allSatisfy((result) -> {
            assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
            assertThat(result.error()).isInstanceOf(BulkheadFullException.class);
            assertThat(result.attempts()).isZero();
        });
        assertThat(this.peak).hasValue(8);
        assertThat(bulkhead.permittedCalls()).isEqualTo(8);
        assertThat(bulkhead.rejectedCalls()).isEqualTo(56);
    }

    @Test
    void aCallThatWaitsPastMaxWaitIsRejected() throws Exception {
        Bulkhead bulkhead = bulkhead(1, Duration.ofMillis(250));
        ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(this.clock)
            .bulkhead(bulkhead)
            .build();
        Bulkhead.Permit held = bulkhead.acquire();
        List<ExecutionResult<String>> results = callInThreads(pipeline, 1);
        awaitValue(bulkhead::waitingCalls, 1);

        this.clock.advance(Duration.ofMillis(250));
        joinThreads();

        assertThat(results).singleElement().satisfies((result) -> {
            assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
            assertThat(result.error()).isInstanceOf(BulkheadFullException.class);
        });
        assertThat(this.inside).hasValue(0);
        bulkhead.release(held);
    }

    @Test
    void anInterruptWhileWaitingEndsTheCallAtOnceWithoutFallbackAndSetsTheFlagAgain() throws Exception {
        Bulkhead bulkhead = bulkhead(1, Duration.ofMinutes(1));
        AtomicInteger fallbacks = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder().maxAttempts(3).build())
            .fallbacks(FallbackChain.of(FallbackHandler.of("cached", (error, call) -> fallbacks.incrementAndGet())))
            .bulkhead(bulkhead)
            .build();
        Bulkhead.Permit held = bulkhead.acquire();
        AtomicReference<ExecutionResult<String>> outcome = new AtomicReference<>();
        AtomicReference<Boolean> flagAfterwards = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            outcome.set(pipeline.execute(this::gatedAction));
            flagAfterwards.set(Thread.currentThread().isInterrupted());
        });
        caller.start();
        awaitValue(bulkhead::waitingCalls, 1);

        caller.interrupt();
        caller.join(10_000);

        assertThat(outcome.get().status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(outcome.get().error()).isInstanceOf(CallInterruptedException.class)
            .hasCauseInstanceOf(InterruptedException.class);
        assertThat(flagAfterwards.get()).isTrue();
        assertThat(fallbacks).hasValue(0);
        assertThat(this.peak).hasValue(0);
        assertThat(bulkhead.waitingCalls()).isZero();
        bulkhead.release(held);
        assertThat(bulkhead.concurrentCalls()).isZero();
    }

    @Test
    void aRefusalGoesToTheFallbackAndTheBreakerDoesNotCountIt() throws Exception {
        CircuitBreaker breaker = CircuitBreaker.of("inventory",
                CircuitBreakerConfig.builder().slidingWindowSize(2).minimumCalls(2).build(), this.clock);
        Bulkhead bulkhead = bulkhead(1, Duration.ZERO);
        List<Throwable> seenByFallback = new ArrayList<>();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder().maxAttempts(3).build())
            .circuitBreaker(breaker)
            .bulkhead(bulkhead)
            .fallbacks(FallbackChain.of(FallbackHandler.of("cached", (error, call) -> {
                seenByFallback.add(error);
                return "cached";
            })))
            .build();
        bulkhead.acquire();

        for (int i = 0; i < 5; i++) {
            ExecutionResult<Object> result = pipeline.execute(() -> "fresh");
            assertThat(result.value()).isEqualTo("cached");
            assertThat(result.attempts()).isZero();
        }

        assertThat(seenByFallback).hasSize(5)
            .allSatisfy((error) -> assertThat(error).isInstanceOf(BulkheadFullException.class));
        CircuitBreakerMetrics metrics = breaker.metrics();
        assertThat(metrics.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(metrics.failedCallsTotal()).isZero();
        assertThat(metrics.bufferedCalls()).isZero();
    }

    @Test
    void withoutAFallbackARefusalEndsRejectedAndIsNoDeadLetter() throws Exception {
        Bulkhead bulkhead = bulkhead(1, Duration.ZERO);
        InMemoryDeadLetterStore deadLetters = new InMemoryDeadLetterStore();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder().maxAttempts(3).build())
            .deadLetters(deadLetters)
            .bulkhead(bulkhead)
            .build();
        bulkhead.acquire();

        ExecutionResult<String> result = pipeline.execute(() -> "fresh");

        assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(result.error()).isInstanceOf(BulkheadFullException.class);
        assertThat(deadLetters.size()).isZero();
    }

    @Test
    void aNestedBulkheadRefusalIsNeitherRetriedNorCountedByTheBreaker() {
        CircuitBreaker breaker = CircuitBreaker.of("inventory",
                CircuitBreakerConfig.builder().slidingWindowSize(1).minimumCalls(1).build(), this.clock);
        AtomicInteger runs = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder().maxAttempts(3).build())
            .circuitBreaker(breaker)
            .build();

        ExecutionResult<Object> result = pipeline.execute(() -> {
            runs.incrementAndGet();
            throw new BulkheadFullException("nested", 4);
        });

        assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(runs).hasValue(1);
        assertThat(breaker.metrics().failedCallsTotal()).isZero();
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
    }

    @Test
    void theBuilderKeepsTheBulkheadAndNullRemovesIt() throws Exception {
        Bulkhead bulkhead = bulkhead(1, Duration.ZERO);
        bulkhead.acquire();

        ResiliencePipeline limited = ResiliencePipeline.builder("inventory").bulkhead(bulkhead).build();
        ResiliencePipeline unlimited = ResiliencePipeline.builder("inventory")
            .bulkhead(bulkhead)
            .bulkhead(null)
            .build();

        assertThat(limited.bulkhead()).isSameAs(bulkhead);
        assertThat(limited.execute(() -> "ok").status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(unlimited.bulkhead()).isNull();
        assertThat(unlimited.<String>call(() -> "ok")).isEqualTo("ok");
    }

    private List<ExecutionResult<String>> callInThreads(ResiliencePipeline pipeline, int count) {
        List<ExecutionResult<String>> results = new CopyOnWriteArrayList<>();
        for (int i = 0; i < count; i++) {
            Thread thread = new Thread(() -> results.add(pipeline.execute(this::gatedAction)));
            this.threads.add(thread);
            thread.start();
        }
        return results;
    }

    private void joinThreads() throws InterruptedException {
        for (Thread thread : this.threads) {
            thread.join(10_000);
            assertThat(thread.isAlive()).isFalse();
        }
    }

    static void awaitValue(IntSupplier value, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (value.getAsInt() != expected) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Expected " + expected + " but was " + value.getAsInt());
            }
            Thread.sleep(1);
        }
    }

}
