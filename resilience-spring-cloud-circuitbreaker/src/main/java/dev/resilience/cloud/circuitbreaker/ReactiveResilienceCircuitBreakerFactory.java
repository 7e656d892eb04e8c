package dev.resilience.cloud.circuitbreaker;

import java.util.Objects;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreaker;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreakerFactory;
import org.springframework.util.Assert;

/**
 * Spring Cloud's {@link ReactiveCircuitBreakerFactory} over this library's engine, the
 * twin of {@link ResilienceCircuitBreakerFactory} for {@code Mono} and {@code Flux}
 * (Spring Cloud Gateway's {@code CircuitBreaker} filter, reactive code written against
 * Spring Cloud CircuitBreaker): the same ids, instance names, selections and pipelines,
 * so a blocking and a reactive breaker of one id are one breaker. Calls never block a
 * thread ({@link ReactiveResilienceCircuitBreaker}). Thread-safe.
 */
public final class ReactiveResilienceCircuitBreakerFactory
        extends ReactiveCircuitBreakerFactory<PolicySelection, PolicySelection.Builder> {

    private final CircuitBreakerPipelines pipelines;

    private volatile Function<String, PolicySelection> defaultSelection = (id) -> PolicySelection.none();

    /**
     * Creates the factory.
     * @param pipelines the pipelines it shares with the blocking factory
     */
    public ReactiveResilienceCircuitBreakerFactory(CircuitBreakerPipelines pipelines) {
        this.pipelines = pipelines;
    }

    /**
     * Returns the breaker of an id.
     * @param id the id, the name of its instances
     * @return the breaker
     */
    @Override
    public ReactiveCircuitBreaker create(String id) {
        return breaker(id, null);
    }

    /**
     * Returns the breaker of an id in a group, whose instances are the group's when the
     * id is not configured and the group is.
     * @param id the id
     * @param groupName the group
     * @return the breaker
     */
    @Override
    public ReactiveCircuitBreaker create(String id, String groupName) {
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

    private ReactiveCircuitBreaker breaker(String id, @Nullable String group) {
        Assert.hasText(id, "A circuit breaker must have an id");
        String name = this.pipelines.ids().instanceName(id, group, getConfigurations()::containsKey);
        PolicySelection configured = getConfigurations().get(name);
        PolicySelection selection = (configured != null) ? configured : this.defaultSelection.apply(id);
        return new ReactiveResilienceCircuitBreaker(this.pipelines, id, name, selection);
    }

}
