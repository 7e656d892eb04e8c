package dev.resilience.core.bulkhead;

import java.time.Duration;

import dev.resilience.core.bulkhead.SimulatedDownstream.Stretch;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gradient's baseline: a latency that halving the limit does not bring down becomes
 * the new normal, a queue the limit let build never does, and one slow call in a window
 * of normal ones moves nothing. The long runs are before {@link SimulatedDownstream}'s 16
 * workers of 40 ms on average (400 calls a second, 40 when ten times slower).
 */
class GradientLimitTests {

    private static final Duration SERVICE_TIME = Duration.ofMillis(40);

    private static final Duration MINUTE = Duration.ofMinutes(1);

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final Bulkhead bulkhead = Bulkhead.of("gradient",
            BulkheadConfig.builder().type(BulkheadType.ADAPTIVE).maxConcurrentCalls(20).build(), this.clock);

    private final SimulatedDownstream downstream = new SimulatedDownstream(this.bulkhead, this.clock, 16, SERVICE_TIME,
            42);

    @Test
    void aLastingSlowdownTheLimitCannotShedBecomesTheNewNormal() {
        this.downstream.run(200, MINUTE);
        this.downstream.serviceTime(SERVICE_TIME.multipliedBy(10));

        Stretch settling = this.downstream.run(200, Duration.ofSeconds(10));
        Stretch tenMinutes = this.downstream.run(200, MINUTE.multipliedBy(10));

        assertThat(settling.lowestLimit()).as("shed first").isLessThan(16);
        assertThat(tenMinutes.endedPerSecond(MINUTE.multipliedBy(10))).as("then the 16 workers kept busy")
            .isGreaterThan(38);
        assertThat(tenMinutes.highestLimit()).as("without drifting").isLessThanOrEqualTo(40);
        assertThat(tenMinutes.longestLatency()).as("the longest of 24,000 requests of 400 ms on average is 4 s")
            .isLessThan(Duration.ofSeconds(6));
    }

    @Test
    void aQueueTheLimitLetsBuildNeverBecomesNormal() {
        this.downstream.run(200, MINUTE);

        Stretch overload = this.downstream.run(800, MINUTE.multipliedBy(10));

        assertThat(overload.endedPerSecond(MINUTE.multipliedBy(10))).isGreaterThan(395);
        assertThat(overload.highestLimit()).isLessThanOrEqualTo(40);
        assertThat(overload.longestLatency()).isLessThan(Duration.ofSeconds(1));
    }

    @Test
    void oneSlowCallInAWindowOfNormalOnesMovesNothing() throws InterruptedException {
        sequentialCalls(100, SERVICE_TIME);

        sequentialCalls(19, SERVICE_TIME);
        sequentialCalls(1, SERVICE_TIME.multipliedBy(10));

        assertThat(this.bulkhead.limit()).as("an average of 58 ms, within 1.5 times 40").isEqualTo(20);
    }

    @Test
    void aWindowInWhichOneCallFailedCutsTheLimitByATenth() throws InterruptedException {
        sequentialCalls(100, SERVICE_TIME);

        sequentialCalls(19, SERVICE_TIME);
        this.bulkhead.onError(this.bulkhead.acquire(), SERVICE_TIME.toNanos(), new IllegalStateException("failed"));

        assertThat(this.bulkhead.limit()).isEqualTo(18);
    }

    private void sequentialCalls(int calls, Duration latency) throws InterruptedException {
        for (int i = 0; i < calls; i++) {
            this.bulkhead.onSuccess(this.bulkhead.acquire(), latency.toNanos());
        }
    }

}
