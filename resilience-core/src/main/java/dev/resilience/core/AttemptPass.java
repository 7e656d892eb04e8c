package dev.resilience.core;

import org.jspecify.annotations.Nullable;

/**
 * The guards' pass of the attempt a call is running, from its admission until it is
 * handed back to the {@link Guards} exactly once: with the attempt's outcome, or
 * abandoned when the attempt ends without one. One per call, used by one thread at a
 * time, as its {@link Execution} is.
 */
final class AttemptPass {

    private final Guards guards;

    private final CallContext context;

    private @Nullable Object pass;

    private boolean held;

    AttemptPass(Guards guards, CallContext context) {
        this.guards = guards;
        this.context = context;
    }

    /**
     * Holds the pass of an attempt the guards admitted, until it is handed back.
     * @param admitted the chain's pass
     */
    void hold(@Nullable Object admitted) {
        this.pass = admitted;
        this.held = true;
    }

    /**
     * Reports a successful attempt, with its value, to the guards.
     * @param durationNanos how long the attempt took
     * @param value the attempt's value
     * @return what a guard's result predicate threw, which ends the call; or {@code null}
     */
    @Nullable ResultPredicateException succeeded(long durationNanos, @Nullable Object value) {
        return this.held ? this.guards.succeeded(this.context, take(), durationNanos, value) : null;
    }

    /**
     * Reports a failed attempt to the guards.
     * @param durationNanos how long the attempt took
     * @param failure what the attempt threw
     */
    void failed(long durationNanos, Throwable failure) {
        if (this.held) {
            this.guards.failed(take(), durationNanos, failure);
        }
    }

    /**
     * Gives the guards back the pass of an attempt that ends without an outcome, as a
     * cancelled one does; does nothing when no pass is held.
     */
    void abandon() {
        if (this.held) {
            this.guards.abandoned(take());
        }
    }

    private @Nullable Object take() {
        Object taken = this.pass;
        this.pass = null;
        this.held = false;
        return taken;
    }

}
