package dev.resilience.core.circuitbreaker;

import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.resilience.core.time.TimeSource;

/**
 * Holds one shared {@link CircuitBreaker} per name. Thread-safe.
 */
public final class CircuitBreakerRegistry {

    private final TimeSource timeSource;

    private final Map<String, CircuitBreaker> breakers = new ConcurrentHashMap<>();

    /**
     * Creates an empty registry whose breakers read time from the given source.
     * @param timeSource the clock of every breaker created here
     */
    public CircuitBreakerRegistry(TimeSource timeSource) {
        this.timeSource = Objects.requireNonNull(timeSource, "timeSource");
    }

    /**
     * Returns the breaker of that name, creating it with the given configuration if it does
     * not exist yet. An existing breaker keeps the configuration it was created with.
     * @param name the breaker's name
     * @param config the configuration for a breaker created by this call
     * @return the one breaker of that name
     */
    public CircuitBreaker breaker(String name, CircuitBreakerConfig config) {
        Objects.requireNonNull(config, "config");
        return this.breakers.computeIfAbsent(name, (key) -> CircuitBreaker.of(key, config, this.timeSource));
    }

    /**
     * Returns the breaker of that name if it exists.
     * @param name the breaker's name
     * @return the breaker, or empty
     */
    public Optional<CircuitBreaker> find(String name) {
        return Optional.ofNullable(this.breakers.get(name));
    }

    /**
     * Returns every breaker, sorted by name.
     * @return an unmodifiable snapshot of the breakers
     */
    public Collection<CircuitBreaker> all() {
        return this.breakers.values().stream().sorted(Comparator.comparing(CircuitBreaker::name)).toList();
    }
}
