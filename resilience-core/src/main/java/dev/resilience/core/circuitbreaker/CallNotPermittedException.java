package dev.resilience.core.circuitbreaker;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a {@link CircuitBreaker} rejects a call. It carries no stack trace, as it
 * is thrown for every rejected call and its cause is the breaker's state, not the
 * caller's code.
 */
public class CallNotPermittedException extends RuntimeException {

    private final String circuitBreakerName;

    private final CircuitBreakerState state;

    private final @Nullable Instant probesAllowedAt;

    /**
     * Creates the exception for a breaker that rejected a call.
     * @param circuitBreakerName the name of the breaker
     * @param state the state that rejected the call
     * @param probesAllowedAt when the breaker will let probes through, or {@code null} if
     * it does not know (forced open, or half open with all its probes taken)
     */
    public CallNotPermittedException(String circuitBreakerName, CircuitBreakerState state,
            @Nullable Instant probesAllowedAt) {
        super(message(circuitBreakerName, state, probesAllowedAt), null, false, false);
        this.circuitBreakerName = circuitBreakerName;
        this.state = state;
        this.probesAllowedAt = probesAllowedAt;
    }

    private static String message(String name, CircuitBreakerState state, @Nullable Instant probesAllowedAt) {
        String prefix = "Circuit breaker '" + name + "' is " + state;
        if (probesAllowedAt != null) {
            return prefix + " and permits no calls until " + probesAllowedAt;
        }
        if (state == CircuitBreakerState.HALF_OPEN) {
            return prefix + " and all its probe calls are taken";
        }
        return prefix + " and permits no calls until it is moved by hand";
    }

    /**
     * Returns the name of the breaker that rejected the call.
     * @return the breaker's name
     */
    public String circuitBreakerName() {
        return this.circuitBreakerName;
    }

    /**
     * Returns the state that rejected the call: {@link CircuitBreakerState#OPEN},
     * {@link CircuitBreakerState#HALF_OPEN} (all probes taken) or
     * {@link CircuitBreakerState#FORCED_OPEN}.
     * @return the rejecting state
     */
    public CircuitBreakerState state() {
        return this.state;
    }

    /**
     * Returns when an open breaker will let probe calls through.
     * @return the instant, or {@code null} when the state is not
     * {@link CircuitBreakerState#OPEN}
     */
    public @Nullable Instant probesAllowedAt() {
        return this.probesAllowedAt;
    }

}
