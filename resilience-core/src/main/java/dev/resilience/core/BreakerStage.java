package dev.resilience.core;

import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import org.jspecify.annotations.Nullable;

/**
 * The breaker stage of a pipeline: asks the breaker to admit each attempt and records the
 * attempt's outcome with the permit it got. Without a breaker every attempt is admitted
 * and nothing is recorded. Built once per pipeline; the permit of a running attempt is
 * per call.
 */
final class BreakerStage {

    /** Whether an attempt may run. */
    enum Admission {

        /** The breaker let the attempt through; its permit is the call's. */
        PERMITTED,

        /** The breaker refused; the call ends REJECTED and is never retried. */
        REJECTED

    }

    private final @Nullable CircuitBreaker breaker;

    BreakerStage(@Nullable CircuitBreaker breaker) {
        this.breaker = breaker;
    }

    /**
     * Asks the breaker to admit the call's next attempt; a refusal ends the call with
     * status {@link ExecutionStatus#REJECTED}.
     * @param call the call, which keeps the permit
     * @return the admission
     */
    Admission admit(Execution<?> call) {
        try {
            call.permit = acquire();
            return Admission.PERMITTED;
        }
        catch (CallNotPermittedException ex) {
            call.stop(ExecutionStatus.REJECTED, ex);
            return Admission.REJECTED;
        }
    }

    /**
     * Takes a permit for an attempt whose state is held by the caller.
     * @return the permit, or {@code null} without a breaker
     * @throws CallNotPermittedException if the breaker refuses
     */
    CircuitBreaker.@Nullable Permit acquire() {
        CircuitBreaker guard = this.breaker;
        return (guard != null) ? guard.acquirePermit() : null;
    }

    /**
     * Records a successful attempt with the permit that admitted it.
     * @param permit the permit, or {@code null} without a breaker
     * @param durationNanos how long the attempt took
     */
    void onSuccess(CircuitBreaker.@Nullable Permit permit, long durationNanos) {
        if (permit != null) {
            this.breaker.onSuccess(permit, durationNanos);
        }
    }

    /**
     * Records a failed attempt with the permit that admitted it.
     * @param permit the permit, or {@code null} without a breaker
     * @param durationNanos how long the attempt took
     * @param failure what the attempt threw
     */
    void onError(CircuitBreaker.@Nullable Permit permit, long durationNanos, Throwable failure) {
        if (permit != null) {
            this.breaker.onError(permit, durationNanos, failure);
        }
    }

    /**
     * Gives back a permit whose attempt ends without an outcome, as a cancelled one does.
     * @param permit the permit, or {@code null}
     */
    void release(CircuitBreaker.@Nullable Permit permit) {
        if (permit != null) {
            this.breaker.release(permit);
        }
    }

}
