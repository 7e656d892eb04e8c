package dev.resilience.core.bulkhead;

import java.time.Duration;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BulkheadResetTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    @Test
    void anAdaptiveLimitThatShrankStartsAgainFromItsInitialLimit() {
        Bulkhead bulkhead = Bulkhead.of("inventory",
                BulkheadConfig.builder()
                    .type(BulkheadType.ADAPTIVE)
                    .algorithm(LimitAlgorithm.AIMD)
                    .maxConcurrentCalls(20)
                    .latencyThreshold(Duration.ofMillis(100))
                    .build(),
                this.clock);
        int initial = bulkhead.limit();
        for (int i = 0; i < 200; i++) {
            Bulkhead.Permit permit = bulkhead.acquireAsync().join();
            bulkhead.onError(permit, Duration.ofSeconds(1).toNanos(), new IllegalStateException("overloaded"));
        }
        assertThat(bulkhead.limit()).isLessThan(initial);

        bulkhead.reset();

        assertThat(bulkhead.limit()).isEqualTo(initial);
    }

    @Test
    void thePermitsOfRunningCallsStayTheirsAndComeBackWhenTheyEnd() throws InterruptedException {
        Bulkhead bulkhead = Bulkhead.of("inventory", BulkheadConfig.builder().maxConcurrentCalls(1).build(),
                this.clock);
        Bulkhead.Permit running = bulkhead.acquire();

        bulkhead.reset();

        assertThat(bulkhead.concurrentCalls()).isOne();
        assertThat(bulkhead.acquireAsync()).isCompletedExceptionally();
        bulkhead.onSuccess(running, 0);
        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(bulkhead.acquireAsync()).isCompleted();
    }

    @Test
    void aWaitingCallGetsThePermitsAGrownLimitFrees() {
        Bulkhead bulkhead = Bulkhead.of("inventory",
                BulkheadConfig.builder()
                    .type(BulkheadType.ADAPTIVE)
                    .algorithm(LimitAlgorithm.AIMD)
                    .maxConcurrentCalls(2)
                    .maxWait(Duration.ofMinutes(1))
                    .latencyThreshold(Duration.ofMillis(100))
                    .build(),
                this.clock);
        for (int i = 0; i < 50 && bulkhead.limit() > 1; i++) {
            Bulkhead.Permit permit = bulkhead.acquireAsync().join();
            bulkhead.onError(permit, Duration.ofSeconds(1).toNanos(), new IllegalStateException("overloaded"));
        }
        assertThat(bulkhead.limit()).isOne();
        Bulkhead.Permit running = bulkhead.acquireAsync().join();
        var waiting = bulkhead.acquireAsync();
        assertThat(waiting).isNotDone();

        bulkhead.reset();

        assertThat(bulkhead.limit()).isEqualTo(2);
        assertThat(waiting).isCompleted();
        assertThat(bulkhead.concurrentCalls()).isEqualTo(2);
        bulkhead.release(running);
        bulkhead.release(waiting.join());
        assertThat(bulkhead.concurrentCalls()).isZero();
    }

    @Test
    void aCallRunningDuringTheResetTeachesTheFreshLimitNothingWhenItEnds() {
        Bulkhead bulkhead = Bulkhead.of("inventory",
                BulkheadConfig.builder()
                    .type(BulkheadType.ADAPTIVE)
                    .algorithm(LimitAlgorithm.AIMD)
                    .maxConcurrentCalls(2)
                    .latencyThreshold(Duration.ofMillis(100))
                    .build(),
                this.clock);
        Bulkhead.Permit before = bulkhead.acquireAsync().join();

        bulkhead.reset();

        bulkhead.onError(before, Duration.ofSeconds(1).toNanos(), new IllegalStateException("overloaded"));
        assertThat(bulkhead.concurrentCalls()).isZero();
        for (int i = 1; i < SampleWindow.MIN_SAMPLES; i++) {
            Bulkhead.Permit fresh = bulkhead.acquireAsync().join();
            bulkhead.onSuccess(fresh, Duration.ofMillis(1).toNanos());
        }
        assertThat(bulkhead.limit()).isEqualTo(2);
    }

}
