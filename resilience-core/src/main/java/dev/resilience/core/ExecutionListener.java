package dev.resilience.core;

import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.hedging.HedgeEvent;
import dev.resilience.core.idempotency.IdempotencyOutcome;
import dev.resilience.core.retry.RetryEvent;

/**
 * Told what happens inside a call, for metrics and tracing. Every method has an empty
 * default; an exception thrown by a listener is caught and ignored.
 */
public interface ExecutionListener {

    /** A listener that does nothing. */
    ExecutionListener NONE = new ExecutionListener() {
    };

    /**
     * An attempt failed and another will follow after a delay.
     * @param name the pipeline's name
     * @param event the failed attempt and the delay
     */
    default void onRetry(String name, RetryEvent event) {
    }

    /**
     * The retry budget refused a retry, ending the call.
     * @param name the pipeline's name
     */
    default void onBudgetRefused(String name) {
    }

    /**
     * A hedged attempt's race was decided: a try won, or every try failed. Told once per
     * attempt of a pipeline with a hedging policy, unless a guard refused its first try.
     * @param name the pipeline's name
     * @param event which try won and how many hedges started
     */
    default void onHedge(String name, HedgeEvent event) {
    }

    /**
     * A fallback was tried.
     * @param name the pipeline's name
     * @param fallbackName the fallback's name
     * @param success whether it produced a value
     */
    default void onFallback(String name, String fallbackName, boolean success) {
    }

    /**
     * The idempotency store decided what the call does.
     * @param name the idempotency policy's name
     * @param outcome the decision
     */
    default void onIdempotency(String name, IdempotencyOutcome outcome) {
    }

    /**
     * A dead letter was written for a call whose work was not done.
     * @param deadLetter the dead letter
     */
    default void onDeadLetter(DeadLetter deadLetter) {
    }

    /**
     * The call ended.
     * @param name the pipeline's name
     * @param result its complete account
     */
    default void onComplete(String name, ExecutionResult<?> result) {
    }

}
