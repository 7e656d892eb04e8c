package dev.resilience.core.time;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryPolicy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fired timer hands its work to an executor whose {@code execute} may block (Spring's
 * {@code SimpleAsyncTaskExecutor} at its {@code concurrency-limit}, the usual cap of
 * virtual threads) without holding up the timer thread, and without pinning a thread per
 * waiting call: during an outage every call waiting for its retry would otherwise hold
 * one, and the number of threads would grow with the number of calls.
 */
class SystemTimeSourceDispatchTests {

    private static final int CALLS = 300;

    @Test
    void timersOfManyCallsWaitingForASaturatedExecutorDoNotPinAThreadEach() throws Exception {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);
        Semaphore slots = new Semaphore(0);
        Executor saturated = (task) -> {
            slots.acquireUninterruptibly();
            try {
                task.run();
            }
            finally {
                slots.release();
            }
        };
        ResiliencePipeline pipeline = ResiliencePipeline.builder("outage")
            .timeSource(new SystemTimeSource(scheduler))
            .executor(saturated)
            .retry(RetryPolicy.builder()
                .maxAttempts(2)
                .backoff(Backoff.of(Duration.ofMillis(10), 1.0, Duration.ofMillis(10), Jitter.NONE))
                .build())
            .build();
        int before = liveThreads();
        List<CompletableFuture<ExecutionResult<String>>> calls = new ArrayList<>();
        try {
            for (int i = 0; i < CALLS; i++) {
                calls.add(pipeline.executeAsync(CallContext.empty(),
                        () -> CompletableFuture.failedFuture(new IOException("outage"))));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            int peak = 0;
            while (System.nanoTime() < deadline) {
                peak = Math.max(peak, liveThreads() - before);
                Thread.sleep(50);
            }
            System.out.printf("FIGURES %d calls waiting for a saturated executor: %d more threads%n", CALLS, peak);
            assertThat(peak).as("platform threads pinned by %d calls waiting for their retry", CALLS)
                .isLessThan(CALLS / 10);
        }
        finally {
            slots.release(CALLS);
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
            scheduler.shutdownNow();
        }
    }

    private static int liveThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).count();
    }

}
