package dev.resilience.core;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterIds;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.deadletter.DeadLetterText;
import dev.resilience.core.idempotency.IdempotencyException;
import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

/**
 * The dead-letter stage of a pipeline, beside the fallback stage: decides whether a call
 * with a retry stage ended, after its fallbacks, with its work undone, and writes its
 * dead letter. Writing never throws: a store failure is logged and the call's outcome
 * stands.
 */
final class DeadLetters {

    private static final System.Logger logger = System.getLogger(DeadLetters.class.getName());

    private final ResiliencePipeline pipeline;

    private final boolean enabled;

    DeadLetters(ResiliencePipeline pipeline, boolean retried) {
        this.pipeline = pipeline;
        this.enabled = retried && pipeline.deadLetters() != null;
    }

    /**
     * Returns whether a call may leave a dead letter, which records when its first and
     * last attempts began.
     */
    boolean enabled() {
        return this.enabled;
    }

    /**
     * Writes the dead letter of a call that ended, if its work was undone.
     * @param context the call's context
     * @param status the call's status
     * @param error the call's final error, {@code null} on success
     * @param attempts the attempts made
     * @param firstAttemptNanos the first attempt's start
     * @param lastAttemptNanos the last attempt's start
     * @return the letter written, or {@code null}
     */
    @Nullable DeadLetter writeIfUndone(CallContext context, ExecutionStatus status, @Nullable Throwable error, int attempts,
            long firstAttemptNanos, long lastAttemptNanos) {
        if (!this.enabled || error == null || !isWorkUndone(status, error)) {
            return null;
        }
        return write(this.pipeline, context, status, error, attempts, firstAttemptNanos, lastAttemptNanos);
    }

    /**
     * A call's work is undone when it ended in ERROR or TIMEOUT for a reason other than
     * its idempotency key, or REJECTED by an open breaker, its own or a nested one
     * ({@link CallNotPermittedException}). A business FAILURE and a rejection because the
     * key is in progress are final answers, not undone work; and a refusal of a rate
     * limiter, a full bulkhead or another guard sheds load: it is no lost work, and a
     * burst of them would evict the letters of work that failed for real from a bounded
     * store.
     */
    static boolean isWorkUndone(ExecutionStatus status, Throwable error) {
        return switch (status) {
            case ERROR, TIMEOUT -> !(error instanceof IdempotencyException);
            case REJECTED -> error instanceof CallNotPermittedException;
            default -> false;
        };
    }

    private static @Nullable DeadLetter write(ResiliencePipeline pipeline, CallContext context, ExecutionStatus status,
            Throwable error, int attempts, long firstAttemptNanos, long lastAttemptNanos) {
        DeadLetterStore store = (context.deadLetters() != null) ? context.deadLetters() : pipeline.deadLetters();
        if (store == null) {
            return null;
        }
        try {
            TimeSource time = pipeline.timeSource();
            Instant now = time.now();
            long nowNanos = time.nanoTime();
            long first = (attempts > 0) ? firstAttemptNanos : nowNanos;
            long last = (attempts > 0) ? lastAttemptNanos : nowNanos;
            DeadLetter deadLetter = new DeadLetter(DeadLetterIds.next(now), pipeline.name(), context.method(),
                    render(pipeline, context), error.getClass().getName(), errorMessage(pipeline, error), attempts,
                    now.minusNanos(nowNanos - first), now.minusNanos(nowNanos - last), status);
            store.write(deadLetter);
            return deadLetter;
        }
        catch (RuntimeException ex) {
            logger.log(System.Logger.Level.ERROR, "Failed to write a dead letter for '" + pipeline.name() + "'", ex);
            return null;
        }
    }

    /**
     * The error's message without the credentials of its URLs, bounded like an argument.
     */
    private static @Nullable String errorMessage(ResiliencePipeline pipeline, Throwable error) {
        String message = DeadLetterText.withoutUrlCredentials(error.getMessage());
        return (message != null) ? DeadLetterText.truncate(message, pipeline.maxArgumentSize()) : null;
    }

    private static List<String> render(ResiliencePipeline pipeline, CallContext context) {
        List<String> rendered = new ArrayList<>(context.arguments().size());
        for (Object argument : context.arguments()) {
            rendered.add(pipeline.renderArgument(argument));
        }
        return rendered;
    }

}
