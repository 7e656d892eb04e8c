package dev.resilience.core.circuitbreaker;

import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

import dev.resilience.core.time.TimeSource;

/**
 * Holds one shared {@link CircuitBreaker} per name. Thread-safe.
 *
 * @deprecated since 0.1.0, for removal: nothing in the library uses it. A breaker made
 * with {@link CircuitBreaker#of(String, CircuitBreakerConfig, TimeSource, Executor)} can
 * be shared by holding it; in a Spring application the named breakers are those of
 * {@code dev.resilience.registry.ResilienceRegistry}, which resolves each name once
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public final class CircuitBreakerRegistry {

    private final TimeSource timeSource;

    private final Executor executor;

    private final Map<String, CircuitBreaker> breakers = new ConcurrentHashMap<>();

    /**
     * Creates an empty registry whose breakers read time from the given source and run
     * their timed transitions where
     * {@link CircuitBreaker#of(String, CircuitBreakerConfig, TimeSource)} runs them.
     * @param timeSource the clock of every breaker created here
     */
    public CircuitBreakerRegistry(TimeSource timeSource) {
        this(timeSource, CircuitBreaker.defaultExecutor(timeSource));
    }

    /**
     * Creates an empty registry whose breakers read time from the given source and run
     * their timed transitions, with their listeners, on the given executor.
     * @param timeSource the clock of every breaker created here
     * @param executor where the automatic transitions of every breaker created here run
     * @see CircuitBreaker#of(String, CircuitBreakerConfig, TimeSource, Executor)
     */
    public CircuitBreakerRegistry(TimeSource timeSource, Executor executor) {
        this.timeSource = Objects.requireNonNull(timeSource, "timeSource");
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /**
     * Returns the breaker of that name, creating it with the given configuration if it
     * does not exist yet. An existing breaker keeps the configuration it was created
     * with.
     * @param name the breaker's name
     * @param config the configuration for a breaker created by this call
     * @return the one breaker of that name
     */
    public CircuitBreaker breaker(String name, CircuitBreakerConfig config) {
        Objects.requireNonNull(config, "config");
        return this.breakers.computeIfAbsent(name,
                (key) -> CircuitBreaker.of(key, config, this.timeSource, this.executor));
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
