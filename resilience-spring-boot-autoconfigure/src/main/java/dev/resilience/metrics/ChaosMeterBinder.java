package dev.resilience.metrics;

import dev.resilience.chaos.ChaosInstance;
import dev.resilience.chaos.ChaosInstances;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Binds {@code resilience.chaos.injected}, the faults injected into each protected
 * operation ({@code name}, {@code kind}: {@code failure} or {@code latency}), for each
 * protected operation from when it is compiled (at startup for those the startup scan
 * sees); a configured name that no operation has gets none. The counters read the
 * {@link ChaosInstance}'s own counts; Spring Boot binds them to every meter registry.
 */
public final class ChaosMeterBinder implements MeterBinder {

    /** The counter of injected faults. */
    public static final String CHAOS_INJECTED = "resilience.chaos.injected";

    private final ChaosInstances chaos;

    /**
     * Creates the binder.
     * @param chaos the faults of every protected operation
     */
    public ChaosMeterBinder(ChaosInstances chaos) {
        this.chaos = chaos;
    }

    /**
     * Binds the meters of every instance, present and future.
     * @param meterRegistry where the meters are registered
     */
    @Override
    public void bindTo(MeterRegistry meterRegistry) {
        this.chaos.forEachInstance((instance) -> bind(instance, meterRegistry));
    }

    private static void bind(ChaosInstance instance, MeterRegistry meterRegistry) {
        FunctionCounter.builder(CHAOS_INJECTED, instance, ChaosInstance::injectedFailures)
            .description("Faults injected into the attempts of a protected operation")
            .tags("name", instance.name(), "kind", "failure")
            .register(meterRegistry);
        FunctionCounter.builder(CHAOS_INJECTED, instance, ChaosInstance::injectedLatencies)
            .description("Faults injected into the attempts of a protected operation")
            .tags("name", instance.name(), "kind", "latency")
            .register(meterRegistry);
    }

}
