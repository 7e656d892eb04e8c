package dev.resilience.core;

import dev.resilience.core.hedging.HedgeEvent;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link HedgeRace} ended.
 *
 * @param kind what ended it
 * @param value the winner's value, or the last value the retry policy rejected
 * @param failure the last failure, the first try's refusal, or the interruption; none for
 * {@link Kind#PAST_DEADLINE}
 * @param judged what the value counts as, when it does not end the call: what a guard's
 * result predicate threw for it, or the retry policy's rejection of it
 * ({@link RetryStage#rejection})
 * @param own whether the engine created the failure
 * @param start when the first try began
 * @param event which try won and how many hedges started
 * @param <T> the type of the value
 */
record RaceOutcome<T>(Kind kind, @Nullable T value, @Nullable Throwable failure, @Nullable RuntimeException judged,
        boolean own, long start, HedgeEvent event) {

    /**
     * Returns how a try that did not win ended, for the race to end with when no other
     * try runs: a failure, or a value the retry policy rejected.
     * @param value the value, or {@code null} for a failure
     * @param failure the failure, or {@code null} for a value
     * @param judged the retry policy's rejection of the value, or what a guard's result
     * predicate threw for it
     * @param own whether the engine created the failure
     * @param <T> the type of the value
     * @return the loss, to {@link #at stamp} when the race ends with it
     */
    static <T> RaceOutcome<T> loss(@Nullable T value, @Nullable Throwable failure, @Nullable RuntimeException judged,
            boolean own) {
        return new RaceOutcome<>((failure != null) ? Kind.FAILURE : Kind.VALUE, value, failure, judged, own, 0,
                new HedgeEvent(HedgeEvent.NONE, 0));
    }

    /**
     * Returns this outcome as the race's, once it ends with it.
     * @param firstStart when the first try began
     * @param ended which try won and how many hedges started
     * @return the outcome
     */
    RaceOutcome<T> at(long firstStart, HedgeEvent ended) {
        return new RaceOutcome<>(this.kind, this.value, this.failure, this.judged, this.own, firstStart, ended);
    }

    enum Kind {

        /**
         * A try produced a value the retry policy accepts, or, when no try did, the last
         * one it rejected ({@link #judged()}).
         */
        VALUE,

        /** Every try that ran failed, or one failed fatally. */
        FAILURE,

        /** The first try was refused by a guard and nothing ran. */
        REFUSED,

        /**
         * The first try was admitted only after the call's deadline, and nothing ran.
         */
        PAST_DEADLINE,

        /** The caller was interrupted while it waited for the tries. */
        INTERRUPTED

    }

}
