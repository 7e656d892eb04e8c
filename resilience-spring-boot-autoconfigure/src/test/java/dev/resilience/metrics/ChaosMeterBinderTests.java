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
 * The counters {@link ChaosMeterBinder} promises in its Javadoc: "from the start for
 * every configured name and for each operation when it is compiled".
 */
class ChaosMeterBinderTests {

    @Test
    void configuredNameHasItsCountersFromTheStartAsTheJavadocSays() {
        ChaosInstances chaos = new ChaosInstances(
                Map.of("price-oracle", new ChaosSettings(0.5, Duration.ZERO, ChaosException.class)));
        SimpleMeterRegistry meters = new SimpleMeterRegistry();

        new ChaosMeterBinder(chaos).bindTo(meters);

        assertThat(meters.find(ChaosMeterBinder.CHAOS_INJECTED).tag("name", "price-oracle").functionCounters())
            .as("counters of the configured name before any operation is compiled")
            .hasSize(2);
    }

}
