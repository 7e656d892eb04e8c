package dev.resilience.event;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerTransition;

import org.springframework.context.ApplicationEvent;

/**
 * Published to the application context every time a circuit breaker changes state. It is
 * published on the thread that caused the change, after the change, so listeners should
 * be short or asynchronous.
 */
public final class CircuitBreakerTransitionEvent extends ApplicationEvent {

    private final transient CircuitBreakerTransition transition;

    /**
     * Creates an event.
     * @param circuitBreaker the breaker that moved, the event's source
     * @param transition the change
     */
    public CircuitBreakerTransitionEvent(CircuitBreaker circuitBreaker, CircuitBreakerTransition transition) {
        super(circuitBreaker);
        this.transition = transition;
    }

    /**
     * Returns the breaker that moved.
     * @return the breaker
     */
    public CircuitBreaker getCircuitBreaker() {
        return (CircuitBreaker) getSource();
    }

    /**
     * Returns the change: the breaker's name, the state it left, the state it entered and
     * when.
     * @return the transition
     */
    public CircuitBreakerTransition getTransition() {
        return this.transition;
    }

}
