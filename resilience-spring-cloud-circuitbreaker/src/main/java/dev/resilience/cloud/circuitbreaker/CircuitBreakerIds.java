package dev.resilience.cloud.circuitbreaker;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Maps the ids of Spring Cloud circuit breakers (and their groups) to the names of this
 * library's instances, with a bound on how many names ids that nothing configures can
 * make. Ids come from code, but code may build them from input (a tenant, a URL): each
 * name is a breaker with its meters, statistics and event buffer, so their number must
 * not grow without bound.
 *
 * <ul>
 * <li>An id that is configured (the YAML names it under {@code instances} of any policy,
 * or the factory holds a configuration for it) is the instance's name.</li>
 * <li>Else, when the breaker has a group (OpenFeign's client name, with
 * {@code spring.cloud.openfeign.circuitbreaker.group.enabled}) and the group is
 * configured, the group is the name: every method of the client shares its
 * instances.</li>
 * <li>Else the id is the name while fewer than {@code max-ids} unconfigured ids have one;
 * the ids seen after them share the instances {@value #OTHER_IDS}.</li>
 * </ul>
 *
 * <p>
 * Whatever ids are asked for, at most {@code max-ids} unconfigured names are made, and
 * once an id has a name it keeps it. The first id sent to {@value #OTHER_IDS} is logged
 * at WARN, once: from then on a breaker opened by the failures of any of those ids
 * rejects the calls of all of them. Thread-safe.
 */
public final class CircuitBreakerIds {

    /** The name of the instances shared by the unconfigured ids beyond the bound. */
    public static final String OTHER_IDS = "spring-cloud:other";

    private static final Log logger = LogFactory.getLog(CircuitBreakerIds.class);

    private final Predicate<String> configured;

    private final int maxIds;

    private final Map<String, Boolean> admitted = new ConcurrentHashMap<>();

    private final AtomicInteger admittedCount = new AtomicInteger();

    private final AtomicBoolean boundReached = new AtomicBoolean();

    /**
     * Creates the mapping.
     * @param configured tells whether the YAML configures a name under the
     * {@code instances} of any policy
     * @param maxIds the most unconfigured ids that get instances of their own, at least 0
     */
    public CircuitBreakerIds(Predicate<String> configured, int maxIds) {
        if (maxIds < 0) {
            throw new IllegalArgumentException("maxIds must be at least 0, was " + maxIds);
        }
        this.configured = Objects.requireNonNull(configured, "configured");
        this.maxIds = maxIds;
    }

    /**
     * Returns the name of the instances of a circuit breaker.
     * @param id the breaker's id
     * @param group the breaker's group, or {@code null} for none
     * @param configuredInFactory tells whether the factory holds a configuration for a
     * name
     * @return the id, the group, or {@value #OTHER_IDS}
     */
    public String instanceName(String id, @Nullable String group, Predicate<String> configuredInFactory) {
        if (isConfigured(id, configuredInFactory)) {
            return id;
        }
        if (group != null && isConfigured(group, configuredInFactory)) {
            return group;
        }
        if (admit(id)) {
            return id;
        }
        if (this.boundReached.compareAndSet(false, true)) {
            logger.warn("Spring Cloud circuit breaker id '" + id + "' and the unconfigured ids after it share the "
                    + "instances '" + OTHER_IDS + "', so that a breaker opened by the failures of any of them "
                    + "rejects the calls of all: " + this.maxIds + " unconfigured ids have instances of their own "
                    + "(spring.cloud.circuitbreaker.resilience.max-ids). Name the ids that need their own under "
                    + "resilience.circuit-breaker.instances, or raise max-ids if the ids do not come from input");
        }
        return OTHER_IDS;
    }

    private boolean isConfigured(String name, Predicate<String> configuredInFactory) {
        return this.configured.test(name) || configuredInFactory.test(name);
    }

    /**
     * Gives an unconfigured id a name of its own while fewer than {@code max-ids} have
     * one: the map decides once per admitted id, however many threads ask at once, and
     * keeps no entry for an id it refuses.
     */
    private boolean admit(String id) {
        if (this.admitted.containsKey(id)) {
            return true;
        }
        return this.admitted.computeIfAbsent(id, (key) -> {
            int before = this.admittedCount.getAndUpdate((count) -> (count < this.maxIds) ? count + 1 : count);
            return (before < this.maxIds) ? Boolean.TRUE : null;
        }) != null;
    }

}
