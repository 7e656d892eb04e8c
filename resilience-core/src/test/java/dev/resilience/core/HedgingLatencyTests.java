package dev.resilience.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Why hedging exists, measured on the virtual clock: a method that answers in 20ms, but
 * whose first try stalls for a second in one call out of ten. Every duration is exact.
 */
class HedgingLatencyTests {

    private static final int CALLS = 100;

    private final VirtualTimeSource clock = new VirtualTimeSource();

    @Test
    void hedgingCutsTheP99OfAMethodWhoseFirstTrySometimesStalls() {
        List<Duration> unhedged = durations(null);
        List<Duration> hedged = durations(HedgingPolicy.of(Duration.ofMillis(50), 1));

        assertThat(percentile(unhedged, 50)).isEqualTo(Duration.ofMillis(20));
        assertThat(percentile(unhedged, 99)).isEqualTo(Duration.ofSeconds(1));
        assertThat(percentile(hedged, 50)).isEqualTo(Duration.ofMillis(20));
        assertThat(percentile(hedged, 99)).as("a hedge 50ms in, answering 20ms later")
            .isEqualTo(Duration.ofMillis(70))
            .isLessThan(Duration.ofMillis(100));
    }

    private List<Duration> durations(@Nullable HedgingPolicy hedging) {
        ResiliencePipeline pipeline = ResiliencePipeline.builder("search")
            .timeSource(this.clock)
            .executor(Runnable::run)
            .hedging(hedging)
            .build();
        List<Duration> durations = new ArrayList<>();
        for (int call = 0; call < CALLS; call++) {
            boolean stalls = call % 10 == 7;
            AtomicInteger tries = new AtomicInteger();
            long start = this.clock.nanoTime();
            CompletableFuture<String> value = pipeline.callAsync(CallContext.empty(), () -> answer(
                    (tries.getAndIncrement() == 0 && stalls) ? Duration.ofSeconds(1) : Duration.ofMillis(20)));
            while (!value.isDone()) {
                this.clock.advance(Duration.ofMillis(1));
            }
            assertThat(value.join()).isEqualTo("found");
            durations.add(Duration.ofNanos(this.clock.nanoTime() - start));
        }
        return durations;
    }

    private CompletionStage<String> answer(Duration after) {
        CompletableFuture<String> stage = new CompletableFuture<>();
        this.clock.schedule(() -> stage.complete("found"), after);
        return stage;
    }

    private static Duration percentile(List<Duration> durations, int percent) {
        List<Duration> sorted = new ArrayList<>(durations);
        Collections.sort(sorted);
        return sorted.get((int) Math.ceil(percent / 100.0 * sorted.size()) - 1);
    }

}
