package dev.resilience.cloud.circuitbreaker;

import java.util.Objects;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import org.springframework.cloud.client.circuitbreaker.CircuitBreaker;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.util.Assert;

/**
 * Spring Cloud's {@link CircuitBreakerFactory} over this library's engine, so that
 * OpenFeign (with {@code spring.cloud.openfeign.circuitbreaker.enabled=true}) and any
 * code written against Spring Cloud CircuitBreaker use the breakers, retry instances,
 * time limiters and bulkheads of the {@code resilience.*} YAML. The id of a breaker is
 * the name of its instances ({@link CircuitBreakerIds} says when a group, or the shared
 * {@value CircuitBreakerIds#OTHER_IDS}, is used instead): the breaker is
 * {@code resilience.circuit-breaker.instances.<id>}, and so on for the other policies.
 *
 * <p>
 * The circuit breaker always guards the calls; the retry instance, the time limiter and
 * the bulkhead of the name do when the YAML names it under their {@code instances}, or
 * when the id's {@link PolicySelection} (given by {@code configure}, else by
 * {@code configureDefault}, which gives none by default) switches them on. Creating a
 * breaker is a lookup: the pipelines behind it are built on the first call of the name
 * and kept. Thread-safe.
 */
public final class ResilienceCircuitBreakerFactory
        extends CircuitBreakerFactory<PolicySelection, PolicySelection.Builder> {

    private final CircuitBreakerPipelines pipelines;

    private volatile Function<String, PolicySelection> defaultSelection = (id) -> PolicySelection.none();

    /**
     * Creates the factory.
     * @param pipelines the pipelines it shares with the reactive factory
     */
    public ResilienceCircuitBreakerFactory(CircuitBreakerPipelines pipelines) {
        this.pipelines = pipelines;
    }

    /**
     * Returns the breaker of an id.
     * @param id the id, the name of its instances
     * @return the breaker
     */
    @Override
    public CircuitBreaker create(String id) {
        return breaker(id, null);
    }

    /**
     * Returns the breaker of an id in a group, whose instances are the group's when the
     * id is not configured and the group is.
     * @param id the id
     * @param groupName the group, such as the OpenFeign client's name
     * @return the breaker
     */
    @Override
    public CircuitBreaker create(String id, String groupName) {
        Assert.hasText(groupName, "A circuit breaker's group must have a name");
        return breaker(id, groupName);
    }

    /**
     * Sets the selection of the ids that {@code configure} does not name.
     * @param defaultSelection gives an id's selection; it is asked at each creation, and
     * what it gives is not kept
     */
    @Override
    public void configureDefault(Function<String, PolicySelection> defaultSelection) {
        this.defaultSelection = Objects.requireNonNull(defaultSelection, "defaultSelection");
    }

    /**
     * Returns a builder of an id's selection, for {@code configure}.
     * @param id the id
     * @return a builder of the circuit breaker alone
     */
    @Override
    protected PolicySelection.Builder configBuilder(String id) {
        return PolicySelection.builder();
    }

    private CircuitBreaker breaker(String id, @Nullable String group) {
        Assert.hasText(id, "A circuit breaker must have an id");
        String name = this.pipelines.ids().instanceName(id, group, getConfigurations()::containsKey);
        PolicySelection configured = getConfigurations().get(name);
        PolicySelection selection = (configured != null) ? configured : this.defaultSelection.apply(id);
        return new ResilienceCircuitBreaker(this.pipelines, id, name, selection);
    }

}
