package dev.resilience.cloud.circuitbreaker;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import dev.resilience.aop.ObservedCalls;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.registry.ResilienceRegistry;
import dev.resilience.registry.ResiliencePolicies;
import io.micrometer.observation.ObservationRegistry;

/**
 * The pipelines of the Spring Cloud circuit breakers, shared by the blocking and the
 * reactive factory: one per instance name, selection of policies, and whether calls bring
 * a fallback, built at first use and kept. Each runs the registry's breaker of the name,
 * so the breaker that OpenFeign or Spring Cloud Gateway opens is the one that
 * {@code /actuator/circuitbreakers}, the health contributor and the
 * {@code resilience.circuitbreaker.*} meters show; and, as the selection and the YAML
 * say, the registry's retry instance, time limiter and bulkhead of the name. Statistics,
 * listeners and dead letters are those of the name, and each call is one
 * {@code resilience.calls} observation named after it. As the names are bounded
 * ({@link CircuitBreakerIds}), so are the pipelines. Thread-safe.
 */
public final class CircuitBreakerPipelines {

    private final ResiliencePolicies policies;

    private final CircuitBreakerIds ids;

    private final Function<String, PolicySelection> configuredPolicies;

    private final ObservedCalls calls;

    private final Map<Key, ResiliencePipeline> pipelines = new ConcurrentHashMap<>();

    /**
     * Creates the pipelines.
     * @param policies the application's policies, whose registry holds the named
     * instances
     * @param ids the mapping of ids to instance names
     * @param configuredPolicies gives the policies the YAML configures for a name under
     * {@code instances}, which run whatever a factory's selection says
     * @param observations where the observation of each call is made
     */
    public CircuitBreakerPipelines(ResiliencePolicies policies, CircuitBreakerIds ids,
            Function<String, PolicySelection> configuredPolicies, ObservationRegistry observations) {
        this.policies = policies;
        this.ids = ids;
        this.configuredPolicies = configuredPolicies;
        this.calls = new ObservedCalls(observations);
    }

    /**
     * Returns the mapping of ids to instance names.
     * @return the mapping
     */
    public CircuitBreakerIds ids() {
        return this.ids;
    }

    /**
     * Returns the registry whose instances the pipelines run.
     * @return the registry
     */
    public ResilienceRegistry registry() {
        return this.policies.registry();
    }

    ObservedCalls calls() {
        return this.calls;
    }

    /**
     * Returns the pipeline of an instance name.
     * @param name the instance name
     * @param selection the policies a factory switches on besides those the YAML
     * configures
     * @param withFallback whether its calls bring a {@link CallFallback}
     * @return the shared pipeline
     */
    ResiliencePipeline pipeline(String name, PolicySelection selection, boolean withFallback) {
        Key key = new Key(name, selection.or(this.configuredPolicies.apply(name)), withFallback);
        ResiliencePipeline pipeline = this.pipelines.get(key);
        return (pipeline != null) ? pipeline : this.pipelines.computeIfAbsent(key, this::build);
    }

    private ResiliencePipeline build(Key key) {
        ResilienceRegistry registry = this.policies.registry();
        ResiliencePipeline.Builder builder = this.policies.pipeline(key.name())
            .circuitBreaker(registry.circuitBreaker(key.name()));
        PolicySelection selection = key.selection();
        if (selection.retry()) {
            builder.retry(registry.retry(key.name()));
        }
        if (selection.timeLimiter()) {
            builder.timeLimit(registry.timeLimit(key.name(), null));
        }
        if (selection.bulkhead()) {
            builder.bulkhead(registry.bulkhead(key.name(), null));
        }
        if (key.withFallback()) {
            builder.fallbacks(CallFallback.CHAIN);
        }
        return builder.build();
    }

    private record Key(String name, PolicySelection selection, boolean withFallback) {
    }

}
