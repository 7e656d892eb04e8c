package dev.resilience.registry;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerRegistry;
import dev.resilience.core.retry.RetryPolicy;

/**
 * The named instances of an application: one shared circuit breaker per breaker name, the
 * retry policy and the {@link CallStatistics} of every protected operation. Instances are
 * created at startup, when annotated methods are compiled and configured instances are
 * read, and listeners hear of each one once. Thread-safe.
 */
public final class ResilienceRegistry {

    private final CircuitBreakerRegistry circuitBreakers;

    private final Map<String, CallStatistics> statistics = new ConcurrentHashMap<>();

    private final Map<String, RetryPolicy> retryPolicies = new ConcurrentHashMap<>();

    private final List<RegistryListener> listeners = new CopyOnWriteArrayList<>();

    private final Set<String> announcedBreakers = ConcurrentHashMap.newKeySet();

    /**
     * Creates a registry over a breaker registry.
     * @param circuitBreakers where breakers are kept
     */
    public ResilienceRegistry(CircuitBreakerRegistry circuitBreakers) {
        this.circuitBreakers = circuitBreakers;
    }

    /**
     * Adds a listener and tells it of every instance that exists already.
     * @param listener the listener
     */
    public void addListener(RegistryListener listener) {
        this.listeners.add(listener);
        this.circuitBreakers.all().forEach(listener::onCircuitBreaker);
        this.statistics.values().forEach(listener::onStatistics);
    }

    /**
     * Returns the breaker of a name, creating it with the configuration the supplier
     * gives if it does not exist yet.
     * @param name the breaker's name
     * @param config the configuration of a new breaker
     * @return the one breaker of that name
     */
    public CircuitBreaker circuitBreaker(String name, Supplier<CircuitBreakerConfig> config) {
        Optional<CircuitBreaker> existing = this.circuitBreakers.find(name);
        if (existing.isPresent()) {
            return existing.get();
        }
        CircuitBreaker created = this.circuitBreakers.breaker(name, config.get());
        if (this.announcedBreakers.add(name)) {
            this.listeners.forEach((listener) -> listener.onCircuitBreaker(created));
        }
        return created;
    }

    /**
     * Returns the breaker of a name.
     * @param name the breaker's name
     * @return the breaker, or empty when none has that name
     */
    public Optional<CircuitBreaker> findCircuitBreaker(String name) {
        return this.circuitBreakers.find(name);
    }

    /**
     * Returns every breaker by name.
     * @return the breakers, sorted by name
     */
    public SortedMap<String, CircuitBreaker> circuitBreakers() {
        SortedMap<String, CircuitBreaker> all = new TreeMap<>();
        this.circuitBreakers.all().forEach((breaker) -> all.put(breaker.name(), breaker));
        return all;
    }

    /**
     * Returns the statistics of a protected operation, creating them on first use.
     * @param name the operation's name
     * @return its statistics
     */
    public CallStatistics statistics(String name) {
        CallStatistics existing = this.statistics.get(name);
        if (existing != null) {
            return existing;
        }
        CallStatistics created = new CallStatistics(name);
        CallStatistics winner = this.statistics.putIfAbsent(name, created);
        if (winner != null) {
            return winner;
        }
        this.listeners.forEach((listener) -> listener.onStatistics(created));
        return created;
    }

    /**
     * Records the retry policy of a named retry instance; the first one recorded for a
     * name is the one reported.
     * @param name the retry instance's name
     * @param policy its resolved policy
     */
    public void registerRetryPolicy(String name, RetryPolicy policy) {
        this.retryPolicies.putIfAbsent(name, policy);
        statistics(name);
    }

    /**
     * Returns the retry policy recorded for a name.
     * @param name the retry instance's name
     * @return the first policy recorded for it, or empty when none is
     */
    public Optional<RetryPolicy> findRetryPolicy(String name) {
        return Optional.ofNullable(this.retryPolicies.get(name));
    }

    /**
     * Returns every retry instance's policy by name.
     * @return the policies, sorted by name
     */
    public SortedMap<String, RetryPolicy> retryPolicies() {
        return new TreeMap<>(this.retryPolicies);
    }

    /**
     * Returns every protected operation's statistics by name.
     * @return the statistics, sorted by name
     */
    public SortedMap<String, CallStatistics> statistics() {
        return new TreeMap<>(this.statistics);
    }

}
