package dev.resilience.core.bulkhead;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * AIMD decides once per window of calls, as many as the limit and at least ten: one cut
 * per generation of slow or failing calls, one step up per generation of fast ones while
 * busy, and the threshold applies to the window's average latency.
 */
class AimdLimitTests {

    private static final Duration THRESHOLD = Duration.ofMillis(100);

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final Bulkhead bulkhead = Bulkhead.of("aimd",
            BulkheadConfig.builder()
                .type(BulkheadType.ADAPTIVE)
                .algorithm(LimitAlgorithm.AIMD)
                .maxConcurrentCalls(20)
                .maxLimit(40)
                .latencyThreshold(THRESHOLD)
                .build(),
            this.clock);

    @Test
    void aGenerationOfSlowCallsCutsTheLimitOnceNotOncePerSlowCall() throws InterruptedException {
        SplittableRandom random = new SplittableRandom(42);
        List<Integer> limits = new ArrayList<>();

        for (int round = 0; round < 3; round++) {
            Generation generation = Generation.of(this.bulkhead, this.bulkhead.limit());
            for (int call = this.bulkhead.limit(); call > 0; call--) {
                generation.succeed(1, exponential(random, THRESHOLD.multipliedBy(10)));
                limits.add(this.bulkhead.limit());
            }
        }

        assertThat(limits).hasSize(20 + 18 + 16);
        assertThat(limits.stream().distinct()).containsExactly(20, 18, 16, 14);
    }

    @Test
    void aWindowInWhichOneCallFailedCutsTheLimitOnce() throws InterruptedException {
        Generation generation = Generation.of(this.bulkhead, 20);

        generation.fail(1, Duration.ofMillis(10));
        generation.succeed(Duration.ofMillis(10));

        assertThat(this.bulkhead.limit()).isEqualTo(18);
    }

    @Test
    void aGenerationOfFastCallsWhileBusyAddsOne() throws InterruptedException {
        Generation.of(this.bulkhead, 20).succeed(Duration.ofMillis(10));

        assertThat(this.bulkhead.limit()).isEqualTo(21);
    }

    @Test
    void slowCallsInAWindowWhoseAverageIsBelowTheThresholdDoNotCutIt() throws InterruptedException {
        Generation generation = Generation.of(this.bulkhead, 20);

        generation.succeed(5, THRESHOLD.multipliedBy(3));
        generation.succeed(Duration.ofMillis(20));

        assertThat(this.bulkhead.limit()).as("an average of 90 ms").isEqualTo(21);
    }

    @Test
    void waitersAreAdmittedWhenTheLimitGrows() throws InterruptedException {
        Bulkhead growing = Bulkhead.of("growing",
                BulkheadConfig.builder()
                    .type(BulkheadType.ADAPTIVE)
                    .algorithm(LimitAlgorithm.AIMD)
                    .maxConcurrentCalls(2)
                    .maxWait(Duration.ofMinutes(1))
                    .build(),
                this.clock);
        Bulkhead.Permit first = growing.acquire();
        for (int i = 0; i < SampleWindow.MIN_SAMPLES - 1; i++) {
            growing.onSuccess(growing.acquire(), Duration.ofMillis(10).toNanos());
        }
        Bulkhead.Permit last = growing.acquire();
        var waiting = List.of(growing.acquireAsync(), growing.acquireAsync());

        growing.onSuccess(last, Duration.ofMillis(10).toNanos());

        assertThat(growing.limit()).isEqualTo(3);
        assertThat(waiting).allSatisfy((future) -> assertThat(future).isCompleted());
        assertThat(growing.concurrentCalls()).isEqualTo(3);
        growing.release(first);
    }

    private static Duration exponential(SplittableRandom random, Duration mean) {
        return Duration.ofNanos(Math.round(-mean.toNanos() * Math.log(1 - random.nextDouble())));
    }

}
