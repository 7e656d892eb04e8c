package dev.resilience.core.circuitbreaker.model;

import java.time.Duration;

import dev.resilience.core.circuitbreaker.CircuitBreakerState;

/**
 * One thing that happens to a breaker: a whole call, the start or the end of a call that
 * stays in flight meanwhile, the clock moving, or a move by hand.
 *
 * @param kind what happens
 * @param ending how a call ends, for {@link Kind#CALL} and {@link Kind#FINISH}
 * @param nanos how long the call took, or how far the clock moves
 * @param target the state moved to by hand, for {@link Kind#MOVE}
 */
record BreakerStep(Kind kind, Ending ending, long nanos, CircuitBreakerState target) {

    /** What a step does. */
    enum Kind {

        /** Ask for permission and, if permitted, report the ending at once. */
        CALL,

        /** Ask for permission and, if permitted, keep the call in flight. */
        START,

        /** Report the ending of the oldest call in flight, if there is one. */
        FINISH,

        /** Move the clock forward. */
        ADVANCE,

        /** Move the breaker by hand. */
        MOVE

    }

    /** How a call ends. */
    enum Ending {

        SUCCESS,

        /** With an error that the breaker records as a failure. */
        FAILURE,

        /** With an error that the breaker ignores. */
        IGNORED_ERROR

    }

    static BreakerStep call(Ending ending, long nanos) {
        return new BreakerStep(Kind.CALL, ending, nanos, CircuitBreakerState.CLOSED);
    }

    static BreakerStep start() {
        return new BreakerStep(Kind.START, Ending.SUCCESS, 0, CircuitBreakerState.CLOSED);
    }

    static BreakerStep finish(Ending ending, long nanos) {
        return new BreakerStep(Kind.FINISH, ending, nanos, CircuitBreakerState.CLOSED);
    }

    static BreakerStep advance(long nanos) {
        return new BreakerStep(Kind.ADVANCE, Ending.SUCCESS, nanos, CircuitBreakerState.CLOSED);
    }

    static BreakerStep move(CircuitBreakerState target) {
        return new BreakerStep(Kind.MOVE, Ending.SUCCESS, 0, target);
    }

    @Override
    public String toString() {
        return switch (this.kind) {
            case CALL -> "call ending in " + this.ending + " after " + Duration.ofNanos(this.nanos);
            case START -> "start a call";
            case FINISH -> "finish the oldest call in " + this.ending + " after " + Duration.ofNanos(this.nanos);
            case ADVANCE -> "advance " + Duration.ofNanos(this.nanos);
            case MOVE -> "move to " + this.target;
        };
    }
}
