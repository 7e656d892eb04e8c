package dev.resilience.feature;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.registry.ResilienceRegistry;

/**
 * The application's circuit breakers as seen by a feature that depends on one: whether
 * the breaker of a name lets calls through now, and its state. Registered by the
 * auto-configuration as the bean {@value #BEAN_NAME}, so that SpEL can ask it, as in
 * {@code @Cacheable(condition = "@circuitBreakers.allows('price-oracle')")} or a
 * Thymeleaf template's {@code ${@circuitBreakers.allows('price-oracle')}}.
 *
 * <p>
 * Only reads: it takes no permit, counts nothing and never moves a breaker, so asking as
 * often as a page renders changes nothing about the calls themselves. It never creates a
 * breaker either: a name is answered only once something has created its breaker (an
 * annotated method, a {@code resilience.circuit-breaker.instances} entry, both from the
 * start; the HTTP client or {@code ResilienceTemplate} at their first call). A name
 * without a breaker is an error, not an answer, so that a typo in an expression fails at
 * its first evaluation instead of keeping a feature on or off for good.
 *
 * <p>
 * Thread-safe; a question costs one map lookup and one read of the breaker's state.
 */
public final class CircuitBreakers {

    /** The name of the bean, as SpEL refers to it: {@code @circuitBreakers}. */
    public static final String BEAN_NAME = "circuitBreakers";

    private final ResilienceRegistry registry;

    /**
     * Creates the view over the registry's breakers.
     * @param registry the registry that holds the breakers
     */
    public CircuitBreakers(ResilienceRegistry registry) {
        this.registry = registry;
    }

    /**
     * Answers whether the breaker of a name would let a call through now: {@code true}
     * when CLOSED or DISABLED, when HALF_OPEN with a probe left, and when OPEN with its
     * wait in open over (the next call becomes its first probe); {@code false} while OPEN
     * waits, when HALF_OPEN has handed out all its probes or waited too long for them,
     * and when FORCED_OPEN. The answer may change before the feature's call is made,
     * which still asks the breaker for its own permit.
     * @param name the breaker's name
     * @return {@code true} if a call asked for now would run
     * @throws IllegalArgumentException if no breaker has that name; the message lists the
     * names that have one
     */
    public boolean allows(String name) {
        return breaker(name).wouldPermitCall();
    }

    /**
     * Returns the state of the breaker of a name. Without automatic transitions an OPEN
     * breaker whose wait is over still reports OPEN until the next call: use
     * {@link #allows(String)} to decide on a feature.
     * @param name the breaker's name
     * @return its state
     * @throws IllegalArgumentException if no breaker has that name; the message lists the
     * names that have one
     */
    public CircuitBreakerState state(String name) {
        return breaker(name).state();
    }

    private CircuitBreaker breaker(String name) {
        return this.registry.findCircuitBreaker(name)
            .orElseThrow(() -> new IllegalArgumentException("No circuit breaker is named '" + name
                    + "'; the circuit breakers are " + this.registry.circuitBreakers().keySet()));
    }

    @Override
    public String toString() {
        return "CircuitBreakers" + this.registry.circuitBreakers().keySet();
    }

}
