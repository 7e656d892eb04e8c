package dev.resilience.core;

import java.util.List;

import dev.resilience.core.idempotency.IdempotencyKeyException;
import org.jspecify.annotations.Nullable;

/**
 * What one call brings to the pipeline besides its action: the object and arguments it is
 * made with (for fallbacks and dead letters), its idempotency key and fingerprint, and a
 * listener for this call alone.
 *
 * @param method the called method's description, for dead letters
 * @param target the object the call is made on, passed to fallbacks; {@code null} for a plain
 * action
 * @param arguments the call's arguments, used as given (not copied)
 * @param idempotencyKey the idempotency key, validated by the pipeline; {@code null} when the
 * pipeline has no idempotency policy; or the {@link IdempotencyKeyException} met while
 * working out the key or the fingerprint, which ends the call with status
 * {@link ExecutionStatus#FAILURE} without running it
 * @param fingerprint what must match between calls with the same key
 * @param listener notified of this call's retries, fallbacks and outcome, after the
 * pipeline's own listener
 */
public record CallContext(String method, @Nullable Object target, List<@Nullable Object> arguments,
        @Nullable Object idempotencyKey, String fingerprint, ExecutionListener listener) {

    private static final CallContext EMPTY = new CallContext("", null, List.of(), null, "", ExecutionListener.NONE);

    /**
     * Returns a context with nothing in it, for calls without idempotency or dead letters.
     * @return the empty context
     */
    public static CallContext empty() {
        return EMPTY;
    }

    /**
     * Returns a context carrying an idempotency key and fingerprint.
     * @param idempotencyKey the key
     * @param fingerprint what must match between calls with the same key
     * @return the context
     */
    public static CallContext idempotent(Object idempotencyKey, String fingerprint) {
        return new CallContext("", null, List.of(), idempotencyKey, fingerprint, ExecutionListener.NONE);
    }

    /**
     * Returns a context describing a method call, for dead letters.
     * @param method the method's description
     * @param arguments the call's arguments
     * @return the context
     */
    public static CallContext of(String method, List<@Nullable Object> arguments) {
        return new CallContext(method, null, arguments, null, "", ExecutionListener.NONE);
    }

    /**
     * Returns a copy of this context with another listener.
     * @param listener the listener for this call
     * @return the new context
     */
    public CallContext withListener(ExecutionListener listener) {
        return new CallContext(this.method, this.target, this.arguments, this.idempotencyKey, this.fingerprint, listener);
    }
}
