package dev.resilience.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.bulkhead.CallsInside;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fixed bulkhead's stage, whose permits carry no object, under 64 threads sharing a
 * bulkhead of 8 through a pipeline, synchronous and asynchronous: never more than 8
 * attempts inside the action, counted there; every permit given back exactly once; and
 * the bulkhead's counters exact afterwards. Waits are on the virtual clock, which no test
 * advances: a call left waiting while a permit is free would wait for ever, and the
 * generous bound on each test's latch would fail.
 */
class BulkheadStageTests {

    private static final int THREADS = 64;

    private static final int LIMIT = 8;

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final List<Thread> threads = new ArrayList<>();

    private final CallsInside calls = new CallsInside();

    @AfterEach
    void stopThreads() throws InterruptedException {
        for (Thread thread : this.threads) {
            thread.interrupt();
            thread.join(10_000);
        }
    }

    private Bulkhead bulkhead(Duration maxWait) {
        return Bulkhead.of("inventory", BulkheadConfig.builder().maxConcurrentCalls(LIMIT).maxWait(maxWait).build(),
                this.clock);
    }

    @Test
    void sixtyFourCallersThroughAPipelineNeverRunMoreThanEightAttemptsAtOnce() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(Duration.ofHours(1));
        ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(this.clock)
            .bulkhead(bulkhead)
            .build();
        int rounds = 300;
        CountDownLatch done = new CountDownLatch(THREADS);
        AtomicLong failed = new AtomicLong();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            start(() -> {
                for (int i = 0; i < rounds; i++) {
                    try {
                        if ((thread + i) % 2 == 0) {
                            pipeline.call(this.calls::work);
                        }
                        else {
                            pipeline.execute(this.calls::work).getOrThrow();
                        }
                    }
                    catch (Exception ex) {
                        failed.incrementAndGet();
                    }
                }
                done.countDown();
            });
        }

        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(failed).hasValue(0);
        assertThat(this.calls.peak()).isBetween(1, LIMIT);
        assertThat(this.calls.ran()).isEqualTo((long) THREADS * rounds);
        assertThat(bulkhead.permittedCalls()).isEqualTo((long) THREADS * rounds);
        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(bulkhead.waitingCalls()).isZero();
    }

    @Test
    void refusedCallsThroughAPipelineAreCountedOnceAndHoldNoPermit() throws InterruptedException {
        Bulkhead bulkhead = bulkhead(Duration.ZERO);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(this.clock)
            .bulkhead(bulkhead)
            .build();
        int rounds = 1_000;
        CountDownLatch done = new CountDownLatch(THREADS);
        AtomicLong refused = new AtomicLong();
        for (int t = 0; t < THREADS; t++) {
            start(() -> {
                for (int i = 0; i < rounds; i++) {
                    try {
                        pipeline.call(this.calls::work);
                    }
                    catch (BulkheadFullException ex) {
                        refused.incrementAndGet();
                    }
                    catch (Exception ex) {
                        throw new IllegalStateException(ex);
                    }
                }
                done.countDown();
            });
        }

        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(this.calls.peak()).isBetween(1, LIMIT);
        assertThat(bulkhead.permittedCalls()).isEqualTo(this.calls.ran());
        assertThat(bulkhead.rejectedCalls()).isEqualTo(refused.get());
        assertThat(this.calls.ran() + refused.get()).isEqualTo((long) THREADS * rounds);
        assertThat(bulkhead.concurrentCalls()).isZero();
    }

    @Test
    void sixtyFourAsynchronousCallsNeverRunMoreThanEightAttemptsAtOnce() {
        Bulkhead bulkhead = bulkhead(Duration.ofHours(1));
        ExecutorService executor = Executors.newFixedThreadPool(4);
        try {
            ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
                .timeSource(this.clock)
                .executor(executor)
                .bulkhead(bulkhead)
                .build();
            int calls = THREADS * 50;
            List<CompletableFuture<ExecutionResult<String>>> results = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                results.add(pipeline.executeAsync(CallContext.empty(),
                        () -> CompletableFuture.supplyAsync(this.calls::work, executor)));
            }

            CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).orTimeout(60, TimeUnit.SECONDS).join();

            assertThat(results).allSatisfy((result) -> assertThat(result.join().value()).isEqualTo("ok"));
            assertThat(this.calls.peak()).isBetween(1, LIMIT);
            assertThat(bulkhead.permittedCalls()).isEqualTo(calls);
            assertThat(bulkhead.concurrentCalls()).isZero();
            assertThat(bulkhead.waitingCalls()).isZero();
        }
        finally {
            executor.shutdownNow();
        }
    }

    private void start(Runnable body) {
        Thread thread = new Thread(body, "bulkhead-stage-test-" + this.threads.size());
        this.threads.add(thread);
        thread.start();
    }

}
