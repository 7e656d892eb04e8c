package dev.resilience.core.bulkhead;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Review findings on the adaptive limits of {@link Bulkhead}, through its public API
 * only: rounds of calls that use the whole limit on the virtual clock.
 */
class BulkheadReviewTests {

    private static final Duration NORMAL = Duration.ofMillis(10);

    private static final Duration FAST_FAILURE = Duration.ofMillis(1);

    private final VirtualTimeSource clock = new VirtualTimeSource();

    /**
     * After an outage whose calls failed fast (connection refused in 1ms where a call
     * takes 10ms), a gradient limit grows back once the calls succeed again: failed
     * windows teach its baseline nothing, so the normal latency does not read as a
     * tenfold rise, and the limit regains its maximum by its head-room, a fifth of its
     * square root per window; DESIGN 12: the limit drops when calls fail and grows back
     * when they recover.
     */
    @Test
    void aGradientLimitGrowsBackAfterAnOutageOfFastFailures() throws InterruptedException {
        Bulkhead bulkhead = Bulkhead.of("inventory",
                BulkheadConfig.builder()
                    .type(BulkheadType.ADAPTIVE)
                    .algorithm(LimitAlgorithm.GRADIENT)
                    .maxConcurrentCalls(20)
                    .minLimit(2)
                    .maxLimit(40)
                    .latencyThreshold(Duration.ofMillis(50))
                    .build(),
                this.clock);

        int healthy = rounds(bulkhead, NORMAL, false, 20);
        int outage = rounds(bulkhead, FAST_FAILURE, true, 20);
        int recovered = rounds(bulkhead, NORMAL, false, 60);

        assertThat(healthy).as("healthy").isEqualTo(40);
        assertThat(outage).as("during the outage, a tenth off per window of failures").isLessThanOrEqualTo(10);
        assertThat(recovered).as("after 60 rounds (windows) of healthy calls again").isEqualTo(40);
    }

    private int rounds(Bulkhead bulkhead, Duration latency, boolean fail, int count) throws InterruptedException {
        for (int round = 0; round < count; round++) {
            List<Bulkhead.Permit> permits = new ArrayList<>();
            int limit = bulkhead.limit();
            for (int i = 0; i < limit; i++) {
                permits.add(bulkhead.acquire());
            }
            long start = this.clock.nanoTime();
            this.clock.advance(latency);
            for (Bulkhead.Permit permit : permits) {
                if (fail) {
                    bulkhead.onError(permit, this.clock.nanoTime() - start, new IOException("refused"));
                }
                else {
                    bulkhead.onSuccess(permit, this.clock.nanoTime() - start);
                }
            }
        }
        return bulkhead.limit();
    }

}
