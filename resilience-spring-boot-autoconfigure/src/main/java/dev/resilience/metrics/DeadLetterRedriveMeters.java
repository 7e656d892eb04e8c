package dev.resilience.metrics;

import java.util.Locale;

import dev.resilience.redrive.RedriveListener;
import dev.resilience.redrive.RedriveResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counts re-drives of dead letters as {@code resilience.deadletters.redriven}, tagged
 * {@code outcome}: one of {@link RedriveResult.Outcome}, in lower case, so the tag has a
 * bounded set of values.
 */
public final class DeadLetterRedriveMeters implements RedriveListener {

    /** The counter of re-drives. */
    public static final String REDRIVEN = "resilience.deadletters.redriven";

    private final MeterRegistry meterRegistry;

    /**
     * Creates the meters.
     * @param meterRegistry where the counter is registered
     */
    public DeadLetterRedriveMeters(MeterRegistry meterRegistry) {
        this.meterRegistry = meterRegistry;
    }

    @Override
    public void onRedrive(RedriveResult result) {
        Counter.builder(REDRIVEN)
            .description("Re-drives of dead letters")
            .tag("outcome", result.outcome().name().toLowerCase(Locale.ROOT))
            .register(this.meterRegistry)
            .increment();
    }

}
