package dev.resilience.chaos;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;

/**
 * The chaos of every protected operation, by name: one {@link ChaosInstance} for each
 * operation compiled, with its configured settings or none, and no other, so that nothing
 * a client sends can add one. Thread-safe.
 */
public final class ChaosInstances {

    private final Map<String, ChaosSettings> configured;

    private final DoubleSupplier random;

    private final Map<String, ChaosInstance> instances = new ConcurrentHashMap<>();

    private final List<Consumer<ChaosInstance>> listeners = new CopyOnWriteArrayList<>();

    /**
     * Creates the instances with the configured settings, drawing failures at random.
     * @param configured the settings by operation name
     */
    public ChaosInstances(Map<String, ChaosSettings> configured) {
        this(configured, () -> ThreadLocalRandom.current().nextDouble());
    }

    /**
     * Creates the instances with the configured settings.
     * @param configured the settings by operation name
     * @param random draws a number in [0, 1) per attempt; an attempt fails when it is
     * below the failure rate
     */
    public ChaosInstances(Map<String, ChaosSettings> configured, DoubleSupplier random) {
        this.configured = Map.copyOf(configured);
        this.random = random;
    }

    /**
     * Returns the chaos of a protected operation, creating it with its configured
     * settings, or none, the first time.
     * @param name the operation's name
     * @return its chaos
     */
    public ChaosInstance instance(String name) {
        ChaosInstance known = this.instances.get(name);
        if (known != null) {
            return known;
        }
        boolean[] created = { false };
        ChaosInstance instance = this.instances.computeIfAbsent(name, (key) -> {
            created[0] = true;
            return new ChaosInstance(key, this.configured.getOrDefault(key, ChaosSettings.NONE), this.random);
        });
        if (created[0]) {
            this.listeners.forEach((listener) -> listener.accept(instance));
        }
        return instance;
    }

    /**
     * Puts every instance's faults back to their configured settings
     * ({@link ChaosInstance#reset()}). For tests, between one and the next.
     */
    public void reset() {
        this.instances.values().forEach(ChaosInstance::reset);
    }

    /**
     * Returns the chaos of an operation if it exists.
     * @param name the operation's name
     * @return its chaos, or empty when no operation has that name
     */
    public Optional<ChaosInstance> find(String name) {
        return Optional.ofNullable(this.instances.get(name));
    }

    /**
     * Returns the configured names that no operation has (yet): a misspelt name, or an
     * operation whose bean is created later.
     * @return the names, sorted
     */
    public SortedSet<String> unmatchedConfiguredNames() {
        SortedSet<String> unmatched = new TreeSet<>(this.configured.keySet());
        unmatched.removeAll(this.instances.keySet());
        return unmatched;
    }

    /**
     * Returns every instance, by name.
     * @return the instances, sorted by name
     */
    public SortedMap<String, ChaosInstance> instances() {
        return Collections.unmodifiableSortedMap(new TreeMap<>(this.instances));
    }

    /**
     * Tells a listener of every instance, those that exist now and those created later
     * (one created while the listener is added may be told twice).
     * @param listener the listener
     */
    public void forEachInstance(Consumer<ChaosInstance> listener) {
        this.listeners.add(listener);
        this.instances.values().forEach(listener);
    }

}
