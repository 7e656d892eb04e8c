package dev.resilience.actuate.endpoint;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

import dev.resilience.chaos.ChaosInstance;
import dev.resilience.chaos.ChaosInstances;
import dev.resilience.chaos.ChaosSettings;
import dev.resilience.core.time.Durations;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.convert.DurationStyle;

/**
 * The {@code chaos} endpoint: the faults injected into each protected operation (all, or
 * one by name), and changing them at run time. The change is off unless the application
 * opts in with {@code management.endpoint.chaos.access=unrestricted}; only the protected
 * operations of the application can be changed, never a name a client makes up, nor a
 * configured name that no operation has.
 */
@Endpoint(id = "chaos", defaultAccess = Access.READ_ONLY)
public class ChaosEndpoint {

    private final ChaosInstances chaos;

    /**
     * Creates the endpoint.
     * @param chaos the faults of every protected operation
     */
    public ChaosEndpoint(ChaosInstances chaos) {
        this.chaos = chaos;
    }

    /**
     * Reports every operation's faults, by name.
     * @return the instances
     */
    @ReadOperation
    public ChaosInstancesDescriptor instances() {
        SortedMap<String, ChaosInstanceDescriptor> instances = new TreeMap<>();
        this.chaos.instances().forEach((name, instance) -> instances.put(name, describe(instance)));
        return new ChaosInstancesDescriptor(instances);
    }

    /**
     * Reports one operation's faults.
     * @param name the operation's name
     * @return its faults, or {@code null} (404) when no operation has that name
     */
    @ReadOperation
    public @Nullable ChaosInstanceDescriptor instance(@Selector String name) {
        return this.chaos.find(name).map(ChaosEndpoint::describe).orElse(null);
    }

    /**
     * Changes the faults of one operation; settings left out stay as they are.
     * @param name the operation's name
     * @param failureRate the fraction of attempts that fail, from 0 to 1, or {@code null}
     * @param latency the time each attempt waits, such as {@code 200ms}, or {@code null}
     * @return the operation's faults after the change; 404 when no operation has that
     * name, 400 with a message for a value out of range
     */
    @WriteOperation
    public WebEndpointResponse<?> update(@Selector String name, @Nullable Double failureRate,
            @Nullable String latency) {
        Optional<ChaosInstance> instance = this.chaos.find(name);
        if (instance.isEmpty()) {
            return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
        }
        try {
            Duration parsed = (latency != null) ? DurationStyle.detectAndParse(latency.trim()) : null;
            instance.get().update(failureRate, parsed);
        }
        catch (IllegalArgumentException ex) {
            return new WebEndpointResponse<>(
                    Map.of("message",
                            "Invalid chaos setting of " + name + ": " + ex.getMessage()
                                    + " (failureRate from 0 to 1, latency such as 200ms)"),
                    WebEndpointResponse.STATUS_BAD_REQUEST);
        }
        return new WebEndpointResponse<>(describe(instance.get()));
    }

    private static ChaosInstanceDescriptor describe(ChaosInstance instance) {
        ChaosSettings settings = instance.settings();
        return new ChaosInstanceDescriptor(settings.failureRate(), Durations.format(settings.latency()),
                settings.exception().getName(),
                new InjectedDescriptor(instance.injectedFailures(), instance.injectedLatencies()));
    }

    /**
     * Every operation's faults.
     *
     * @param instances the faults by operation name
     */
    public record ChaosInstancesDescriptor(SortedMap<String, ChaosInstanceDescriptor> instances) {
    }

    /**
     * The faults of one operation.
     *
     * @param failureRate the fraction of attempts that fail
     * @param latency the time each attempt waits
     * @param exception the class of the injected failure
     * @param injected the counts of faults injected so far
     */
    public record ChaosInstanceDescriptor(double failureRate, String latency, String exception,
            InjectedDescriptor injected) {
    }

    /**
     * The counts of faults injected into one operation.
     *
     * @param failure the failures injected
     * @param latency the attempts delayed
     */
    public record InjectedDescriptor(long failure, long latency) {
    }

}
