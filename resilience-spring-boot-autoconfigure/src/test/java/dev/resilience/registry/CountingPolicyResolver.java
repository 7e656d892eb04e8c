package dev.resilience.registry;

import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.retry.RetryPolicy;
import org.jspecify.annotations.Nullable;

/**
 * A {@link PolicyResolver} for tests: the built-in defaults (or a given breaker
 * configuration) for every name, a new policy each call, and a record of every call: the
 * name and the annotation it was asked with.
 */
public final class CountingPolicyResolver implements PolicyResolver {

    private final Set<String> configuredRetries;

    private final Set<String> configuredCircuitBreakers;

    private final Map<String, List<@Nullable Annotation>> retryCalls = new ConcurrentHashMap<>();

    private final Map<String, List<@Nullable Annotation>> circuitBreakerCalls = new ConcurrentHashMap<>();

    private final List<String> idempotencyCalls = new CopyOnWriteArrayList<>();

    private volatile CircuitBreakerConfig circuitBreakerConfig = CircuitBreakerConfig.ofDefaults();

    private volatile Consumer<String> whileResolving = (name) -> {
    };

    /**
     * Creates a resolver that configures no instance by name.
     */
    public CountingPolicyResolver() {
        this(Set.of(), Set.of());
    }

    /**
     * Creates a resolver that says these instances are configured by name.
     * @param configuredRetries the retry instances
     * @param configuredCircuitBreakers the breakers
     */
    public CountingPolicyResolver(Set<String> configuredRetries, Set<String> configuredCircuitBreakers) {
        this.configuredRetries = configuredRetries;
        this.configuredCircuitBreakers = configuredCircuitBreakers;
    }

    /**
     * Gives every breaker resolved from now on this configuration.
     * @param config the configuration
     * @return this resolver
     */
    public CountingPolicyResolver circuitBreakerConfig(CircuitBreakerConfig config) {
        this.circuitBreakerConfig = config;
        return this;
    }

    /**
     * Runs an action, with the name, in every call that resolves a breaker or a retry
     * instance, after the call is recorded and before it returns.
     * @param action the action; it may throw to fail the resolution
     * @return this resolver
     */
    public CountingPolicyResolver whileResolving(Consumer<String> action) {
        this.whileResolving = action;
        return this;
    }

    @Override
    public RetryPolicy retry(String name, @Nullable Retryable annotation) {
        record(this.retryCalls, name, annotation);
        return RetryPolicy.ofDefaults();
    }

    @Override
    public CircuitBreakerConfig circuitBreaker(String name, @Nullable CircuitGuarded annotation) {
        record(this.circuitBreakerCalls, name, annotation);
        return this.circuitBreakerConfig;
    }

    @Override
    public IdempotencyPolicy idempotency(String name, Idempotent annotation, IdempotencyStore store) {
        this.idempotencyCalls.add(name);
        return IdempotencyPolicy.of(name, store);
    }

    @Override
    public Set<String> configuredRetries() {
        return this.configuredRetries;
    }

    @Override
    public Set<String> configuredCircuitBreakers() {
        return this.configuredCircuitBreakers;
    }

    /**
     * Returns the annotations a retry instance was resolved with, one per call.
     * @param name the retry instance's name
     * @return the annotations, {@code null} for a call without one
     */
    public List<@Nullable Annotation> retryCalls(String name) {
        return new ArrayList<>(this.retryCalls.getOrDefault(name, List.of()));
    }

    /**
     * Returns the annotations a breaker was resolved with, one per call.
     * @param name the breaker's name
     * @return the annotations, {@code null} for a call without one
     */
    public List<@Nullable Annotation> circuitBreakerCalls(String name) {
        return new ArrayList<>(this.circuitBreakerCalls.getOrDefault(name, List.of()));
    }

    /**
     * Returns the names of the idempotency policies resolved, one per call.
     * @return the names
     */
    public List<String> idempotencyCalls() {
        return List.copyOf(this.idempotencyCalls);
    }

    private void record(Map<String, List<@Nullable Annotation>> calls, String name, @Nullable Annotation annotation) {
        calls.computeIfAbsent(name, (key) -> new CopyOnWriteArrayList<>()).add(annotation);
        this.whileResolving.accept(name);
    }

}
