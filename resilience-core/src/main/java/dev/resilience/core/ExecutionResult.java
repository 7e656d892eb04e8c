package dev.resilience.core;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The complete account of one protected call: how it ended, what it produced, and how it
 * got there.
 *
 * @param status how the call ended
 * @param value the value produced, by the method, a fallback or a replay; {@code null}
 * unless {@code status} is {@link ExecutionStatus#SUCCESS} (and then {@code null} only if
 * the method returned {@code null})
 * @param error the final error; {@code null} when {@code status} is
 * {@link ExecutionStatus#SUCCESS}. Earlier attempts' errors are in
 * {@code attemptFailures}
 * @param attempts how many times the method ran; 0 for a replay or a rejection
 * @param attemptFailures every failed attempt, in order
 * @param duration how long the call took, from entering the pipeline to leaving it
 * @param fallbackUsed whether the value came from a fallback or the last good value
 * @param fallbackIndex 0 when the primary method produced the outcome, else the position
 * of the fallback that did, the first being 1; where the pipeline keeps last good values,
 * the last good value is the first
 * @param replayed whether the value was replayed from the idempotency store
 * @param metadata further facts about the call, keyed by the constants of this class
 * @param <T> the type of the value
 */
public record ExecutionResult<T>(ExecutionStatus status, @Nullable T value, @Nullable Throwable error, int attempts,
        List<AttemptFailure> attemptFailures, Duration duration, boolean fallbackUsed, int fallbackIndex,
        boolean replayed, Map<String, Object> metadata) {

    /** Metadata key: {@code true} when the retry budget refused a retry of this call. */
    public static final String BUDGET_REFUSED = "budgetRefused";

    /** Metadata key: the id of the dead letter written for this call. */
    public static final String DEAD_LETTER_ID = "deadLetterId";

    /** Metadata key: the name of the fallback method that produced the value. */
    public static final String FALLBACK_NAME = "fallbackName";

    /**
     * Metadata key: the {@link java.time.Instant} at which the last good value served to
     * this call was stored.
     */
    public static final String STALE_SINCE = "staleSince";

    /** Metadata key: the idempotency key the call ran under. */
    public static final String IDEMPOTENCY_KEY = "idempotencyKey";

    /**
     * Copies the lists and maps so that a result never changes once built.
     */
    public ExecutionResult {
        attemptFailures = List.copyOf(attemptFailures);
        metadata = Map.copyOf(metadata);
    }

    /**
     * Returns a successful result carrying only a value. A method whose declared return
     * type is {@code ExecutionResult} returns this from its body; the interceptor
     * replaces it with the complete account of the call.
     * @param value the value, may be {@code null}
     * @param <T> the type of the value
     * @return a result with status {@link ExecutionStatus#SUCCESS} and one attempt
     */
    public static <T> ExecutionResult<T> success(@Nullable T value) {
        return new ExecutionResult<>(ExecutionStatus.SUCCESS, value, null, 1, List.of(), Duration.ZERO, false, 0, false,
                Map.of());
    }

    /**
     * Returns whether the call produced a value.
     * @return {@code true} when {@code status} is {@link ExecutionStatus#SUCCESS}
     */
    public boolean isSuccess() {
        return this.status == ExecutionStatus.SUCCESS;
    }

    /**
     * Returns the value, or throws the final error.
     * @return the value
     * @throws Exception the final error, as thrown, when the call did not succeed
     */
    public @Nullable T getOrThrow() throws Exception {
        if (this.error == null) {
            return this.value;
        }
        if (this.error instanceof Exception exception) {
            throw exception;
        }
        if (this.error instanceof Error fatal) {
            throw fatal;
        }
        throw new IllegalStateException(this.error);
    }

    /**
     * Throws the final error when it is of a type, and returns this result otherwise: a
     * caller that keeps the account of the call lets its framework answer those errors,
     * as the Spring MVC idempotency support answers an
     * {@link dev.resilience.core.idempotency.IdempotencyException} with a problem
     * response.
     * @param type the type of the errors to throw
     * @param <X> that type
     * @return this result, whose final error, if any, is not of that type
     * @throws X the final error, as it is, when it is of that type
     */
    public <X extends Throwable> ExecutionResult<T> throwIf(Class<X> type) throws X {
        if (type.isInstance(this.error)) {
            throw type.cast(this.error);
        }
        return this;
    }

    static Map<String, Object> metadata(boolean budgetRefused, @Nullable String deadLetterId,
            @Nullable String fallbackName, @Nullable String idempotencyKey, @Nullable Instant staleSince) {
        if (!budgetRefused && deadLetterId == null && fallbackName == null && idempotencyKey == null) {
            return Map.of();
        }
        Map<String, Object> metadata = new HashMap<>(8);
        if (staleSince != null) {
            metadata.put(STALE_SINCE, staleSince);
        }
        if (budgetRefused) {
            metadata.put(BUDGET_REFUSED, true);
        }
        if (deadLetterId != null) {
            metadata.put(DEAD_LETTER_ID, deadLetterId);
        }
        if (fallbackName != null) {
            metadata.put(FALLBACK_NAME, fallbackName);
        }
        if (idempotencyKey != null) {
            metadata.put(IDEMPOTENCY_KEY, idempotencyKey);
        }
        return metadata;
    }

}
