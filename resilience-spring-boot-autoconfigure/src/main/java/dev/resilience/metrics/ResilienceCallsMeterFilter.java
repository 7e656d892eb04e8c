package dev.resilience.metrics;

import java.util.List;
import java.util.Set;

import dev.resilience.aop.CallObserver;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;

/**
 * Keeps the meters that Micrometer's {@code DefaultMeterObservationHandler} derives from
 * the {@code resilience.calls} observation to the one timer of the contract: the timer
 * keeps only the tags {@code name}, {@code status} and {@code fallback} (the handler's
 * {@code error} tag is dropped: the status says how a call ended, and the error's class
 * name is not a tag value to multiply meters by), and the derived
 * {@code resilience.calls.active} long-task timer and the event counters
 * ({@code resilience.calls.retry}, {@code resilience.calls.fallback}) are denied:
 * in-flight calls, retries and fallbacks are not meters of the contract, or are counted
 * by {@code resilience.retries} and {@code resilience.fallbacks}. Other meters are left
 * to the other filters.
 */
public final class ResilienceCallsMeterFilter implements MeterFilter {

    private static final String CALLS = CallObserver.OBSERVATION_NAME;

    private static final Set<String> DENIED = Set.of(CALLS + "." + CallObserver.RETRY_EVENT,
            CALLS + "." + CallObserver.FALLBACK_EVENT, CALLS + ".active");

    private static final String ERROR_TAG = "error";

    /**
     * Denies the meters derived from the observation other than its timer.
     * @param id the meter's id
     * @return {@link MeterFilterReply#DENY} for the derived meters, else
     * {@link MeterFilterReply#NEUTRAL}
     */
    @Override
    public MeterFilterReply accept(Meter.Id id) {
        return DENIED.contains(id.getName()) ? MeterFilterReply.DENY : MeterFilterReply.NEUTRAL;
    }

    /**
     * Drops the {@code error} tag from the {@code resilience.calls} timer.
     * @param id the meter's id
     * @return the id without the {@code error} tag for the timer, else the id as it is
     */
    @Override
    public Meter.Id map(Meter.Id id) {
        if (!CALLS.equals(id.getName()) || id.getTag(ERROR_TAG) == null) {
            return id;
        }
        List<Tag> kept = id.getTags().stream().filter((tag) -> !ERROR_TAG.equals(tag.getKey())).toList();
        return id.replaceTags(kept);
    }

}
