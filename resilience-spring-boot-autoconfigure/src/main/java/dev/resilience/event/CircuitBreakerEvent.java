package dev.resilience.event;

import java.time.Instant;

import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import org.jspecify.annotations.Nullable;

/**
 * One entry of a breaker's recent events: a state transition, or a run of consecutive
 * rejected calls coalesced into one entry.
 *
 * @param type what happened
 * @param from the state left, for a transition; {@code null} for rejections
 * @param to the state entered, for a transition; {@code null} for rejections
 * @param time when the transition happened, or when the latest rejection of the run
 * happened
 * @param since when the first rejection of the run happened; {@code null} for a
 * transition
 * @param count how many calls the run rejected; 1 for a transition
 */
public record CircuitBreakerEvent(Type type, @Nullable CircuitBreakerState from, @Nullable CircuitBreakerState to,
        Instant time, @Nullable Instant since, long count) {

    /**
     * The kinds of events.
     */
    public enum Type {

        /** The breaker changed state. */
        STATE_TRANSITION,

        /** The breaker rejected calls. */
        NOT_PERMITTED

    }
}
