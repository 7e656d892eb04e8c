package dev.resilience.metrics;

import dev.resilience.aop.CallObserver;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;

/**
 * Denies the counters that Micrometer's {@code DefaultMeterObservationHandler} would create
 * for the events of the {@code resilience.calls} observation
 * ({@code resilience.calls.retry} and {@code resilience.calls.fallback}): retries and
 * fallbacks are counted by {@code resilience.retries} and {@code resilience.fallbacks}, and
 * one concept gets one meter. Other meters are left to the other filters.
 */
public final class ObservationEventsMeterFilter implements MeterFilter {

    private static final String RETRY_EVENT_COUNTER = CallObserver.OBSERVATION_NAME + "." + CallObserver.RETRY_EVENT;

    private static final String FALLBACK_EVENT_COUNTER = CallObserver.OBSERVATION_NAME + "."
            + CallObserver.FALLBACK_EVENT;

    /**
     * Denies the event counters of the {@code resilience.calls} observation.
     * @param id the meter's id
     * @return {@link MeterFilterReply#DENY} for the event counters, else
     * {@link MeterFilterReply#NEUTRAL}
     */
    @Override
    public MeterFilterReply accept(Meter.Id id) {
        String name = id.getName();
        return (RETRY_EVENT_COUNTER.equals(name) || FALLBACK_EVENT_COUNTER.equals(name)) ? MeterFilterReply.DENY
                : MeterFilterReply.NEUTRAL;
    }
}
