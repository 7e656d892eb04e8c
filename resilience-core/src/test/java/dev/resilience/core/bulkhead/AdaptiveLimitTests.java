package dev.resilience.core.bulkhead;

import java.time.Duration;

import dev.resilience.core.bulkhead.SimulatedDownstream.Stretch;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both adaptive limits before a downstream whose latencies vary as a real one's do: 16
 * workers of 40 ms on average, exponentially spread, so 400 calls a second at most
 * ({@link SimulatedDownstream}, seeded, on the virtual clock). Each bulkhead has the
 * engine's defaults (starts at 25, between 1 and 200, refuses at once when full), and
 * AIMD a latency threshold of 500 ms, above the 400 ms a request takes when the
 * downstream is ten times slower.
 */
class AdaptiveLimitTests {

    private static final Duration SERVICE_TIME = Duration.ofMillis(40);

    private static final Duration SLOW_SERVICE_TIME = SERVICE_TIME.multipliedBy(10);

    private static final int WORKERS = 16;

    private static final Duration MINUTE = Duration.ofMinutes(1);

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private Bulkhead adaptive(LimitAlgorithm algorithm) {
        return Bulkhead.of("adaptive",
                BulkheadConfig.builder()
                    .type(BulkheadType.ADAPTIVE)
                    .algorithm(algorithm)
                    .latencyThreshold(Duration.ofMillis(500))
                    .build(),
                this.clock);
    }

    private SimulatedDownstream downstream(Bulkhead bulkhead) {
        return new SimulatedDownstream(bulkhead, this.clock, WORKERS, SERVICE_TIME, 42);
    }

    @ParameterizedTest
    @CsvSource({ "AIMD, 100", "AIMD, 200", "AIMD, 300", "GRADIENT, 100", "GRADIENT, 200", "GRADIENT, 300" })
    void atASteadyLoadAHealthyDownstreamCanServeNoCallIsRefused(LimitAlgorithm algorithm, int callsPerSecond) {
        Stretch tenMinutes = downstream(adaptive(algorithm)).run(callsPerSecond, MINUTE.multipliedBy(10));

        assertThat(tenMinutes.arrivals()).isEqualTo(callsPerSecond * 600L);
        assertThat(tenMinutes.refused()).isZero();
    }

    @ParameterizedTest
    @EnumSource(LimitAlgorithm.class)
    void theLimitFallsWhenTheLatencyRisesTenfoldAndRecoversAfterwards(LimitAlgorithm algorithm) {
        SimulatedDownstream downstream = downstream(adaptive(algorithm));

        Stretch healthy = downstream.run(200, MINUTE);
        Stretch slow = downstream.serviceTime(SLOW_SERVICE_TIME).run(200, MINUTE);
        Stretch recovering = downstream.serviceTime(SERVICE_TIME).run(200, Duration.ofSeconds(10));
        Stretch recovered = downstream.run(200, MINUTE);

        assertThat(healthy.refused()).isZero();
        assertThat(slow.lowestLimit()).as("falls below its healthy level").isLessThan(healthy.lastLimit() / 2);
        assertThat(slow.longestLatency()).as("bounded, where no bulkhead lets the queue reach 47 s")
            .isLessThan(Duration.ofSeconds(5));
        assertThat(slow.endedPerSecond(MINUTE)).as("the slow downstream, which serves 40 a second, kept busy")
            .isGreaterThan(36);
        assertThat(recovering.lastLimit()).as("grows back").isGreaterThanOrEqualTo(WORKERS);
        assertThat(recovered.refused()).isZero();
    }

    @ParameterizedTest
    @EnumSource(LimitAlgorithm.class)
    void failuresLowerTheLimit(LimitAlgorithm algorithm) {
        SimulatedDownstream downstream = downstream(adaptive(algorithm));
        Stretch healthy = downstream.run(200, MINUTE);

        Stretch failing = downstream.failing(0.5).run(200, Duration.ofSeconds(10));

        assertThat(failing.lastLimit()).isLessThan(healthy.lastLimit() / 2);
    }

    @ParameterizedTest
    @EnumSource(LimitAlgorithm.class)
    void failuresBringTheLimitDownToItsMinimumAndNoFurther(LimitAlgorithm algorithm) throws InterruptedException {
        Bulkhead bulkhead = Bulkhead.of("failing",
                BulkheadConfig.builder()
                    .type(BulkheadType.ADAPTIVE)
                    .algorithm(algorithm)
                    .maxConcurrentCalls(20)
                    .minLimit(2)
                    .build(),
                this.clock);

        for (int i = 0; i < 500; i++) {
            bulkhead.onError(bulkhead.acquire(), SERVICE_TIME.toNanos(), new IllegalStateException("down"));
        }

        assertThat(bulkhead.limit()).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(LimitAlgorithm.class)
    void aCancelledCallTeachesNothingNorCountsTowardsAWindow(LimitAlgorithm algorithm) throws InterruptedException {
        Bulkhead bulkhead = Bulkhead.of("cancelled",
                BulkheadConfig.builder()
                    .type(BulkheadType.ADAPTIVE)
                    .algorithm(algorithm)
                    .maxConcurrentCalls(20)
                    .build(),
                this.clock);
        for (int i = 0; i < 100; i++) {
            bulkhead.onSuccess(bulkhead.acquire(), SERVICE_TIME.toNanos());
        }

        for (int i = 0; i < 100; i++) {
            Generation.of(bulkhead, 20).cancel();
        }
        for (int i = 0; i < 19; i++) {
            bulkhead.onSuccess(bulkhead.acquire(), SLOW_SERVICE_TIME.multipliedBy(10).toNanos());
        }

        assertThat(bulkhead.limit()).as("the window of 20 calls is still open").isEqualTo(20);
        bulkhead.onSuccess(bulkhead.acquire(), SLOW_SERVICE_TIME.multipliedBy(10).toNanos());
        assertThat(bulkhead.limit()).as("the 20th slow call closes it").isLessThan(20);
    }

    @ParameterizedTest
    @EnumSource(LimitAlgorithm.class)
    void theLimitDoesNotGrowWhileMostOfItIsUnused(LimitAlgorithm algorithm) throws InterruptedException {
        Bulkhead bulkhead = adaptive(algorithm);

        for (int i = 0; i < 1000; i++) {
            bulkhead.onSuccess(bulkhead.acquire(), SERVICE_TIME.toNanos());
        }

        assertThat(bulkhead.limit()).isEqualTo(BulkheadConfig.DEFAULT_MAX_CONCURRENT_CALLS);
    }

    @Test
    void aFixedBulkheadNeverMovesItsLimit() throws InterruptedException {
        Bulkhead bulkhead = Bulkhead.of("fixed", BulkheadConfig.builder().maxConcurrentCalls(5).build(), this.clock);

        for (int i = 0; i < 100; i++) {
            bulkhead.onError(bulkhead.acquire(), SLOW_SERVICE_TIME.toNanos(), new IllegalStateException());
        }
        downstream(bulkhead).serviceTime(SLOW_SERVICE_TIME).run(200, MINUTE);

        assertThat(bulkhead.limit()).isEqualTo(5);
    }

}
