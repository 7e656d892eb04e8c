package dev.resilience.core;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What one call brings to the pipeline besides its action: the idempotency key and
 * fingerprint, the method and arguments recorded in a dead letter, and a listener for this
 * call alone.
 *
 * @param method the called method's description, for dead letters
 * @param arguments the call's arguments, for dead letters
 * @param idempotencyKey the idempotency key, validated by the pipeline; {@code null} when the
 * pipeline has no idempotency policy
 * @param fingerprint what must match between calls with the same key
 * @param listener notified of this call's retries, fallbacks and idempotency outcome, after
 * the pipeline's own listener
 */
public record CallContext(String method, List<@Nullable Object> arguments, @Nullable Object idempotencyKey,
        String fingerprint, ExecutionListener listener) {

    private static final CallContext EMPTY = new CallContext("", List.of(), null, "", ExecutionListener.NONE);

    /**
     * Copies the arguments, which may contain {@code null}.
     */
    public CallContext {
        arguments = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(arguments));
    }

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
        return new CallContext("", List.of(), idempotencyKey, fingerprint, ExecutionListener.NONE);
    }

    /**
     * Returns a copy of this context with another listener.
     * @param listener the listener for this call
     * @return the new context
     */
    public CallContext withListener(ExecutionListener listener) {
        return new CallContext(this.method, this.arguments, this.idempotencyKey, this.fingerprint, listener);
    }
}
