package dev.resilience.redrive;

import org.jspecify.annotations.Nullable;

/**
 * How a re-drive of a dead letter ended.
 *
 * @param id the dead letter's id
 * @param outcome how the re-drive ended
 * @param status the status of the call run again ({@code SUCCESS}, {@code ERROR}, ...),
 * or {@code null} when it did not run or its status is not known (an asynchronous method
 * completes on another thread)
 * @param attempts how many times the method ran, or {@code null} when it did not run or
 * the number is not known
 * @param errorClass the fully qualified class of the call's final error, or {@code null}
 * @param error the call's final error message, or why the call did not run; {@code null}
 * on success
 * @param deadLetter what became of the dead letter
 */
public record RedriveResult(String id, Outcome outcome, @Nullable String status, @Nullable Integer attempts,
        @Nullable String errorClass, @Nullable String error, DeadLetterState deadLetter) {

    static RedriveResult notRun(String id, Outcome outcome, String reason, DeadLetterState deadLetter) {
        return new RedriveResult(id, outcome, null, null, null, reason, deadLetter);
    }

    /**
     * How a re-drive ended; the {@code outcome} tag of
     * {@code resilience.deadletters.redriven}, in lower case.
     */
    public enum Outcome {

        /** The call ran and did its work: the dead letter is deleted. */
        SUCCESS,

        /** The call ran and failed again: the dead letter is kept as it was. */
        FAILURE,

        /**
         * The stored arguments cannot be read back (masked, truncated, not JSON, of a
         * type that does not parse) or the method no longer exists: the call did not run
         * and the dead letter is kept.
         */
        UNREADABLE,

        /** Another re-drive of the same dead letter holds it: the call did not run. */
        IN_PROGRESS,

        /** No dead letter has the id. */
        NOT_FOUND

    }

    /**
     * What became of the dead letter.
     */
    public enum DeadLetterState {

        /** It is kept as it was. */
        KEPT,

        /** It is deleted, its work done. */
        DELETED,

        /** There is none with the id, or another re-drive holds it. */
        NONE,

        /**
         * The store failed while ending the re-drive's claim, after the call: to delete
         * the letter of a call that succeeded (a command that timed out may still land),
         * or to write back the letter of a call that failed, with a store that claims a
         * letter by deleting it (the stores of this library keep it). Look it up.
         */
        UNKNOWN

    }

}
