package dev.resilience.event;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerListener;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.circuitbreaker.CircuitBreakerTransition;
import dev.resilience.registry.RegistryListener;
import dev.resilience.registry.ResilienceRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Listens to every circuit breaker of a {@link ResilienceRegistry}: publishes each
 * transition as a {@link CircuitBreakerTransitionEvent}, logs it (WARN when the breaker
 * opens, INFO otherwise), and keeps each breaker's recent events, transitions and
 * rejections, for the {@code circuitbreakers} endpoint.
 *
 * <p>
 * Each breaker keeps at most {@code capacity} entries, newest first. Consecutive
 * rejections are coalesced into one entry with a count, the time of the first and of the
 * latest, so that a flood of rejections while a breaker is open cannot evict its
 * transitions.
 *
 * <p>
 * Joins the registry once the context's singletons exist and hears of every breaker,
 * existing or created later. Thread-safe and lock-free.
 */
public final class CircuitBreakerEvents implements RegistryListener, SmartInitializingSingleton {

    /** How many entries each breaker keeps by default. */
    public static final int DEFAULT_CAPACITY = 50;

    private static final Log logger = LogFactory.getLog(CircuitBreakerEvents.class);

    private final ResilienceRegistry registry;

    private final ApplicationEventPublisher publisher;

    private final int capacity;

    private final Map<String, EventBuffer> buffers = new ConcurrentHashMap<>();

    /**
     * Creates the events of a registry's breakers.
     * @param registry the registry whose breakers to listen to
     * @param publisher where transition events are published
     * @param capacity how many entries each breaker keeps; at least 1
     */
    public CircuitBreakerEvents(ResilienceRegistry registry, ApplicationEventPublisher publisher, int capacity) {
        this.registry = registry;
        this.publisher = publisher;
        this.capacity = capacity;
    }

    /**
     * Joins the registry, which tells this of every breaker that exists and of every one
     * created later.
     */
    @Override
    public void afterSingletonsInstantiated() {
        this.registry.addListener(this);
    }

    /**
     * Starts listening to a breaker; a breaker already listened to is left alone.
     * @param circuitBreaker the breaker
     */
    @Override
    public void onCircuitBreaker(CircuitBreaker circuitBreaker) {
        EventBuffer buffer = new EventBuffer(this.capacity);
        if (this.buffers.putIfAbsent(circuitBreaker.name(), buffer) == null) {
            circuitBreaker.addListener(new BreakerListener(circuitBreaker, buffer));
        }
    }

    /**
     * Returns a breaker's recent events, newest first.
     * @param circuitBreakerName the breaker's name
     * @return the events; empty for a breaker not listened to
     */
    public List<CircuitBreakerEvent> events(String circuitBreakerName) {
        EventBuffer buffer = this.buffers.get(circuitBreakerName);
        return (buffer != null) ? buffer.snapshot() : List.of();
    }

    /**
     * Returns the names of the breakers whose events are kept, one bounded buffer each.
     * @return the names, sorted
     */
    public SortedSet<String> circuitBreakerNames() {
        return new TreeSet<>(this.buffers.keySet());
    }

    private final class BreakerListener implements CircuitBreakerListener {

        private final CircuitBreaker circuitBreaker;

        private final EventBuffer buffer;

        BreakerListener(CircuitBreaker circuitBreaker, EventBuffer buffer) {
            this.circuitBreaker = circuitBreaker;
            this.buffer = buffer;
        }

        @Override
        public void onStateTransition(CircuitBreakerTransition transition) {
            this.buffer.onTransition(transition);
            log(transition);
            CircuitBreakerEvents.this.publisher
                .publishEvent(new CircuitBreakerTransitionEvent(this.circuitBreaker, transition));
        }

        @Override
        public void onCallNotPermitted(String circuitBreakerName, Instant at) {
            this.buffer.onNotPermitted(at);
        }

        private void log(CircuitBreakerTransition transition) {
            String message = "Circuit breaker '" + transition.circuitBreakerName() + "' moved from " + transition.from()
                    + " to " + transition.to();
            if (transition.to() == CircuitBreakerState.OPEN || transition.to() == CircuitBreakerState.FORCED_OPEN) {
                logger.warn(message);
            }
            else {
                logger.info(message);
            }
        }

    }

}
