package dev.resilience.test;

import java.time.Duration;
import java.util.Map;

import dev.resilience.chaos.ChaosException;
import dev.resilience.chaos.ChaosInstance;
import dev.resilience.chaos.ChaosInstances;
import dev.resilience.chaos.ChaosSettings;
import org.junit.jupiter.api.Test;

import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ResilienceReset} over a context's chaos: faults changed at run time, through the
 * chaos endpoint for instance, go back to their configured settings.
 */
class ResilienceResetTests {

    @Test
    void aResetPutsChaosChangedAtRunTimeBackToItsConfiguredSettings() {
        ChaosSettings configured = new ChaosSettings(0.25, Duration.ofMillis(10), ChaosException.class);
        ChaosInstances chaos = new ChaosInstances(Map.of("gateway", configured));
        ChaosInstance gateway = chaos.instance("gateway");
        ChaosInstance inventory = chaos.instance("inventory");
        gateway.update(1.0, Duration.ofSeconds(2));
        inventory.update(0.5, null);
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            context.registerBean(ChaosInstances.class, () -> chaos);
            context.refresh();

            ResilienceReset.of(context).reset();
        }
        assertThat(gateway.settings()).isEqualTo(configured);
        assertThat(inventory.settings()).isEqualTo(ChaosSettings.NONE);
    }

}
