package dev.resilience.metrics;

import java.time.Duration;
import java.util.Map;

import dev.resilience.chaos.ChaosException;
import dev.resilience.chaos.ChaosInstances;
import dev.resilience.chaos.ChaosSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The counters of {@link ChaosMeterBinder}: one pair per compiled operation, none for a
 * configured name that no operation has.
 */
class ChaosMeterBinderTests {

    @Test
    void compiledOperationHasItsCountersAndAConfiguredNameWithoutOneHasNone() {
        ChaosInstances chaos = new ChaosInstances(
                Map.of("price-oracle", new ChaosSettings(0.5, Duration.ZERO, ChaosException.class)));
        SimpleMeterRegistry meters = new SimpleMeterRegistry();

        new ChaosMeterBinder(chaos).bindTo(meters);
        assertThat(meters.find(ChaosMeterBinder.CHAOS_INJECTED).tag("name", "price-oracle").functionCounters())
            .as("counters of a configured name before its operation is compiled")
            .isEmpty();

        chaos.instance("price-oracle");

        assertThat(meters.find(ChaosMeterBinder.CHAOS_INJECTED).tag("name", "price-oracle").functionCounters())
            .extracting((counter) -> counter.getId().getTag("kind"))
            .containsExactlyInAnyOrder("failure", "latency");
    }

}
