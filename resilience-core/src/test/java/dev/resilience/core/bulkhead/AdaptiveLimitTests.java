package dev.resilience.core.bulkhead;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Adaptive limits on the virtual clock: the limit falls when the latency of the calls
 * rises tenfold, grows back when it recovers, and stays between its bounds. Each round
 * takes every permit the limit allows, lets the virtual time pass by the latency, and
 * hands the permits back with the time measured on that clock, as a busy service would.
 */
class AdaptiveLimitTests {

    private static final Duration NORMAL = Duration.ofMillis(10);

    private static final Duration SLOW = Duration.ofMillis(100);

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private Bulkhead adaptive(LimitAlgorithm algorithm) {
        return Bulkhead.of("adaptive",
                BulkheadConfig.builder()
                    .type(BulkheadType.ADAPTIVE)
                    .algorithm(algorithm)
                    .maxConcurrentCalls(20)
                    .minLimit(2)
                    .maxLimit(40)
                    .latencyThreshold(Duration.ofMillis(50))
                    .build(),
                this.clock);
    }

    @ParameterizedTest
    @EnumSource(LimitAlgorithm.class)
    void theLimitFallsWhenLatencyRisesTenfoldAndRecoversAfterwards(LimitAlgorithm algorithm)
            throws InterruptedException {
        Bulkhead bulkhead = adaptive(algorithm);
        List<Integer> limits = new ArrayList<>();

        int healthy = rounds(bulkhead, NORMAL, 20, limits);
        int overloaded = rounds(bulkhead, SLOW, 10, limits);
        int recovered = rounds(bulkhead, NORMAL, 30, limits);

        assertThat(healthy).as("grows while healthy and busy").isEqualTo(40);
        assertThat(overloaded).as("falls under a tenfold latency").isLessThanOrEqualTo(10);
        assertThat(recovered).as("grows back once the latency recovers").isEqualTo(40);
        assertThat(limits).allSatisfy((limit) -> assertThat(limit).isBetween(2, 40));
    }

    @ParameterizedTest
    @EnumSource(LimitAlgorithm.class)
    void failuresBringTheLimitDownToItsMinimumAndNoFurther(LimitAlgorithm algorithm) throws InterruptedException {
        Bulkhead bulkhead = adaptive(algorithm);

        for (int i = 0; i < 500; i++) {
            bulkhead.onError(bulkhead.acquire(), NORMAL.toNanos(), new IllegalStateException("down"));
        }

        assertThat(bulkhead.limit()).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(LimitAlgorithm.class)
    void theLimitDoesNotGrowWhileMostOfItIsUnused(LimitAlgorithm algorithm) throws InterruptedException {
        Bulkhead bulkhead = adaptive(algorithm);

        for (int i = 0; i < 100; i++) {
            bulkhead.onSuccess(bulkhead.acquire(), NORMAL.toNanos());
        }

        assertThat(bulkhead.limit()).isEqualTo(20);
    }

    @Test
    void aPermitGivenBackWithoutOutcomeTeachesNothing() throws InterruptedException {
        Bulkhead bulkhead = adaptive(LimitAlgorithm.AIMD);

        for (int i = 0; i < 10; i++) {
            bulkhead.release(bulkhead.acquire());
        }

        assertThat(bulkhead.limit()).isEqualTo(20);
    }

    @Test
    void aFixedBulkheadNeverMovesItsLimit() throws InterruptedException {
        Bulkhead bulkhead = Bulkhead.of("fixed", BulkheadConfig.builder().maxConcurrentCalls(5).build(), this.clock);

        rounds(bulkhead, SLOW, 5, new ArrayList<>());
        bulkhead.onError(bulkhead.acquire(), 1, new IllegalStateException());

        assertThat(bulkhead.limit()).isEqualTo(5);
    }

    @Test
    void waitersAreAdmittedWhenTheLimitGrows() throws InterruptedException {
        Bulkhead bulkhead = Bulkhead.of("growing",
                BulkheadConfig.builder()
                    .type(BulkheadType.ADAPTIVE)
                    .algorithm(LimitAlgorithm.AIMD)
                    .maxConcurrentCalls(2)
                    .maxWait(Duration.ofMinutes(1))
                    .build(),
                this.clock);
        Bulkhead.Permit first = bulkhead.acquire();
        Bulkhead.Permit second = bulkhead.acquire();
        var waiting = List.of(bulkhead.acquireAsync(), bulkhead.acquireAsync());

        bulkhead.onSuccess(second, NORMAL.toNanos());

        assertThat(bulkhead.limit()).isEqualTo(3);
        assertThat(waiting).allSatisfy((future) -> assertThat(future).isCompleted());
        assertThat(bulkhead.concurrentCalls()).isEqualTo(3);
        bulkhead.release(first);
    }

    /**
     * Runs rounds of calls that use the whole limit and take the given latency.
     * @return the limit after the last round
     */
    private int rounds(Bulkhead bulkhead, Duration latency, int count, List<Integer> limits)
            throws InterruptedException {
        for (int round = 0; round < count; round++) {
            List<Bulkhead.Permit> permits = new ArrayList<>();
            int limit = bulkhead.limit();
            for (int i = 0; i < limit; i++) {
                permits.add(bulkhead.acquire());
            }
            long start = this.clock.nanoTime();
            this.clock.advance(latency);
            for (Bulkhead.Permit permit : permits) {
                bulkhead.onSuccess(permit, this.clock.nanoTime() - start);
                limits.add(bulkhead.limit());
            }
        }
        return bulkhead.limit();
    }

}
