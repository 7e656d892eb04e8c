package dev.resilience.core;

import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

/**
 * A stage that every attempt passes on its way to the action: it admits the attempt or
 * refuses it, and then hears how the attempt it admitted ended. The circuit breaker is
 * one ({@link BreakerStage}); a pipeline holds its guards in {@link Guards}, ordered by
 * {@link #order()}, and the synchronous and asynchronous drivers pass every attempt
 * through all of them, so that a new guard needs no change to either driver.
 *
 * <p>
 * A guard is shared by every call of its pipeline, and by every pipeline built from the
 * same builder, so it is thread-safe and keeps no state of one call. Every pass it hands
 * out comes back exactly once: with the attempt's outcome, or abandoned when the attempt
 * ends without one (cancelled, or refused by a later guard). What it throws while hearing
 * an outcome or taking a pass back is logged and changes nothing in the call.
 *
 * @param <P> what admits one attempt, such as a breaker's permit; handed back with the
 * attempt's outcome
 */
interface AttemptGuard<P> {

    /** The place of a rate limiter among the guards: the outermost. */
    int RATE_LIMITER = 100;

    /** The place of the circuit breaker among the guards. */
    int CIRCUIT_BREAKER = 200;

    /** The place of a bulkhead among the guards: the innermost. */
    int BULKHEAD = 300;

    /**
     * Returns where the guard stands in the order of DESIGN section 12: a guard with a
     * lower order admits an attempt before one with a higher order.
     * @return the order, such as {@link #CIRCUIT_BREAKER}
     */
    int order();

    /**
     * Returns whether the guard uses the duration of the attempts it hears of, as a
     * breaker does to find slow calls. A synchronous call none of whose guards uses it
     * does not time its attempt for them, which saves two clock reads: its guards then
     * hear a duration of 0. By default a guard uses it.
     * @return {@code false} for a guard that ignores every duration it hears
     */
    default boolean usesDuration() {
        return true;
    }

    /**
     * Returns whether a predicate of the guard judges the values attempts return, as a
     * breaker's result predicate does. Values are judged with the call's context
     * {@link CallContext#judged() bound}, which a chain none of whose guards judges need
     * not bind. By default a guard does not judge.
     * @return {@code true} for a guard whose predicate may read the judged call
     */
    default boolean judgesValues() {
        return false;
    }

    /**
     * Returns whether the guard never makes an attempt wait, so that
     * {@link #admitAsync()} would only wrap {@link #admit()}'s answer in a done future:
     * an asynchronous call whose guards all answer at once is admitted through
     * {@link #admit()}, without a future. By default a guard may make an attempt wait.
     * @return {@code true} for a guard whose {@link #admit()} never waits
     */
    default boolean answersAtOnce() {
        return false;
    }

    /**
     * Returns whether {@link #changes()} counts every change of the guard that may run
     * code other than its own (listeners) on the thread admitting an attempt or telling
     * it an outcome. By default a guard does not count them.
     * @return {@code true} for a guard whose {@link #changes()} tells
     */
    default boolean countsChanges() {
        return false;
    }

    /**
     * Returns how many changes that may run listeners the guard has made, as a breaker's
     * changes of state; meaningful only when {@link #countsChanges()}. A driver that
     * reads the same count before and after admitting an attempt, or telling the guard
     * its outcome, knows that the clock reading it took before still tells the time.
     * @return the count of changes
     */
    default long changes() {
        return 0;
    }

    /**
     * Admits the next attempt of a synchronous call or refuses it. A guard that makes an
     * attempt wait (a bulkhead's queue, a rate limiter's next permit) waits on the
     * calling thread, and an interrupt ends the wait with a
     * {@link CallInterruptedException}. A refusal ends the call with status
     * {@link ExecutionStatus#REJECTED} and the exception thrown; it is never retried and
     * goes to the fallbacks.
     * @return the pass of the attempt
     * @throws RuntimeException the refusal
     */
    P admit();

    /**
     * Admits the next attempt of an asynchronous call without blocking the calling
     * thread: the future completes with the pass, or exceptionally with the refusal,
     * which ends the call as {@link #admit()}'s does. A guard that may make an attempt
     * wait completes it later, from whatever thread ends the wait (never running more
     * than the future's completion there); cancelling it gives up the wait, and a pass it
     * still delivers is handed back by the driver. By default the answer of
     * {@link #admit()}, at once: a guard whose {@code admit()} may wait overrides it.
     * @return the future pass of the attempt
     */
    default CompletableFuture<P> admitAsync() {
        try {
            return CompletableFuture.completedFuture(admit());
        }
        catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    /**
     * Hears that an admitted attempt produced a value.
     * @param pass the attempt's pass
     * @param durationNanos how long the attempt took
     */
    void succeeded(P pass, long durationNanos);

    /**
     * Hears that an admitted attempt produced a value, for a guard that judges values, as
     * a breaker with a result predicate does. A guard whose predicate throws settles its
     * pass and throws a {@link ResultPredicateException}, which ends the call with status
     * {@link ExecutionStatus#ERROR}. By default the same as
     * {@link #succeeded(Object, long)}.
     * @param pass the attempt's pass
     * @param durationNanos how long the attempt took
     * @param value the attempt's value
     */
    default void succeeded(P pass, long durationNanos, @Nullable Object value) {
        succeeded(pass, durationNanos);
    }

    /**
     * Hears that an admitted attempt failed.
     * @param pass the attempt's pass
     * @param durationNanos how long the attempt took
     * @param failure what the attempt threw
     */
    void failed(P pass, long durationNanos, Throwable failure);

    /**
     * Takes back the pass of an attempt that ends without an outcome: a cancelled one, or
     * one that a later guard refused.
     * @param pass the attempt's pass
     */
    void abandoned(P pass);

}
