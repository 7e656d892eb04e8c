package dev.resilience.core;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Review findings on the tries of synchronous hedged attempts ({@link SyncHedges}).
 */
class SyncHedgesReviewTests {

    private static final long BOUND = 10;

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final AtomicReference<Thread> hedgeThread = new AtomicReference<>();

    @AfterEach
    void stopHedge() {
        Thread thread = this.hedgeThread.get();
        if (thread != null) {
            thread.interrupt();
        }
    }

    /**
     * Shows that an interrupt of a hedge's executor thread from outside the race (an
     * executor shutting down, say) while the hedge waits for the bulkhead is swallowed:
     * the hedge is refused and its thread's interrupt flag is left cleared, where a hedge
     * whose action throws an {@link InterruptedException} has the flag set again
     * ({@code SyncHedges#ended}); DESIGN 11: an interrupt is never lost.
     */
    @Test
    void aHedgeInterruptedFromOutsideWhileItWaitsForAPermitLeavesItsThreadsFlagSet() throws Exception {
        Bulkhead bulkhead = Bulkhead.of("prices",
                BulkheadConfig.builder().maxConcurrentCalls(1).maxWait(Duration.ofHours(1)).build(), this.clock);
        AtomicBoolean flagAfterHedge = new AtomicBoolean();
        CountDownLatch hedgeDone = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("prices").timeSource(this.clock).executor((task) -> {
            Thread thread = new Thread(() -> {
                task.run();
                flagAfterHedge.set(Thread.currentThread().isInterrupted());
                hedgeDone.countDown();
            });
            this.hedgeThread.set(thread);
            thread.start();
        }).hedging(HedgingPolicy.of(Duration.ofMillis(50), 1)).bulkhead(bulkhead).build();

        String value = pipeline.call(() -> {
            if (started.incrementAndGet() > 1) {
                return "hedge";
            }
            this.clock.advance(Duration.ofMillis(50));
            await().atMost(Duration.ofSeconds(BOUND)).until(() -> bulkhead.waitingCalls() == 1);
            this.hedgeThread.get().interrupt();
            assertThat(hedgeDone.await(BOUND, TimeUnit.SECONDS)).isTrue();
            return "first";
        });

        assertThat(value).isEqualTo("first");
        assertThat(flagAfterHedge).as("the hedge thread's interrupt flag after its try").isTrue();
    }

}
