package dev.resilience.core;

import dev.resilience.core.hedging.HedgeEvent;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link HedgeRace} ended.
 *
 * @param kind what ended it
 * @param value the winner's value
 * @param failure the last failure, the first try's refusal, or the interruption; none for
 * {@link Kind#PAST_DEADLINE}
 * @param judged what a guard's result predicate threw for the winner's value
 * @param own whether the engine created the failure
 * @param start when the first try began
 * @param event which try won and how many hedges started
 * @param <T> the type of the value
 */
record RaceOutcome<T>(Kind kind, @Nullable T value, @Nullable Throwable failure,
        @Nullable ResultPredicateException judged, boolean own, long start, HedgeEvent event) {

    enum Kind {

        /** A try produced a value. */
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
