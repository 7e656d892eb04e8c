package dev.resilience.actuate.endpoint;

import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.time.Durations;
import dev.resilience.registry.ResilienceRegistry;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code bulkheads} endpoint, read-only: every bulkhead's resolved settings and its
 * live figures (the current limit, the calls running and waiting, the calls permitted and
 * rejected).
 */
@Endpoint(id = "bulkheads")
public class BulkheadsEndpoint {

    private final ResilienceRegistry registry;

    /**
     * Creates the endpoint.
     * @param registry the bulkheads to report
     */
    public BulkheadsEndpoint(ResilienceRegistry registry) {
        this.registry = registry;
    }

    /**
     * Reports every bulkhead, by name.
     * @return the bulkheads
     */
    @ReadOperation
    public BulkheadsDescriptor bulkheads() {
        SortedMap<String, BulkheadDescriptor> bulkheads = new TreeMap<>();
        this.registry.bulkheads().forEach((name, bulkhead) -> bulkheads.put(name, describe(bulkhead)));
        return new BulkheadsDescriptor(bulkheads);
    }

    private static BulkheadDescriptor describe(Bulkhead bulkhead) {
        BulkheadConfig config = bulkhead.config();
        return new BulkheadDescriptor(config.type().name().toLowerCase(Locale.ROOT), config.maxConcurrentCalls(),
                Durations.format(config.maxWait()), config.minLimit(), config.maxLimit(),
                config.algorithm().name().toLowerCase(Locale.ROOT), Durations.format(config.latencyThreshold()),
                bulkhead.limit(), bulkhead.concurrentCalls(), bulkhead.waitingCalls(), bulkhead.permittedCalls(),
                bulkhead.rejectedCalls());
    }

    /**
     * The bulkheads of the application.
     *
     * @param bulkheads each bulkhead, by name
     */
    public record BulkheadsDescriptor(Map<String, BulkheadDescriptor> bulkheads) {
    }

    /**
     * One bulkhead.
     *
     * @param type {@code fixed} or {@code adaptive}
     * @param maxConcurrentCalls the configured limit, the initial one of an adaptive
     * bulkhead
     * @param maxWait the longest wait for a permit
     * @param minLimit the lowest limit of an adaptive bulkhead (a fixed one ignores it)
     * @param maxLimit the highest limit of an adaptive bulkhead (a fixed one ignores it)
     * @param algorithm the algorithm of an adaptive bulkhead (a fixed one ignores it)
     * @param latencyThreshold the average latency of a window of calls that an
     * {@code aimd} limit backs off at (other bulkheads ignore it)
     * @param limit the limit now
     * @param concurrentCalls the calls running now
     * @param waitingCalls the calls waiting for a permit now
     * @param permittedCalls the calls permitted since the start
     * @param rejectedCalls the calls rejected since the start
     */
    public record BulkheadDescriptor(String type, int maxConcurrentCalls, String maxWait, int minLimit, int maxLimit,
            String algorithm, String latencyThreshold, int limit, int concurrentCalls, int waitingCalls,
            long permittedCalls, long rejectedCalls) {
    }

}
