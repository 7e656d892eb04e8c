package dev.resilience.core;

import java.util.List;
import java.util.Objects;

import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyKeyException;
import org.jspecify.annotations.Nullable;

/**
 * What one call brings to the pipeline besides its action: the object and arguments it is
 * made with (for fallbacks and dead letters), its idempotency key and fingerprint, and a
 * listener for this call alone.
 *
 * @param method the called method's description, for dead letters
 * @param target the object the call is made on, passed to fallbacks; {@code null} for a
 * plain action
 * @param arguments the call's arguments, used as given (not copied)
 * @param idempotencyKey the idempotency key, validated by the pipeline; {@code null} when
 * the pipeline has no idempotency policy; or the {@link IdempotencyKeyException} met
 * while working out the key or the fingerprint, which ends the call with status
 * {@link ExecutionStatus#FAILURE} without running it
 * @param fingerprint what must match between calls with the same key
 * @param listener notified of this call's retries, fallbacks and outcome, after the
 * pipeline's own listener
 * @param idempotencyScope whose key the idempotency key is, such as the authenticated
 * caller's name: calls of two scopes never share a stored entry, whatever their keys;
 * empty for none
 * @param deadLetters where this call's dead letter goes instead of the pipeline's store,
 * such as the record a re-run of a dead letter keeps of its own failure, so that it never
 * adds a second letter beside the one it re-runs; {@code null} for the pipeline's store.
 * A pipeline without a dead-letter store writes none either way. Only this call's
 * {@code listener} hears of a letter written there, not the pipeline's listeners, whose
 * counts are of the pipeline's store.
 * @param carried what the call carries from the thread it starts on to the threads that
 * run its later steps, such as the caller's logging context and current trace;
 * {@link CarriedContext#NONE} for nothing
 */
public record CallContext(String method, @Nullable Object target, List<@Nullable Object> arguments,
        @Nullable Object idempotencyKey, String fingerprint, ExecutionListener listener, String idempotencyScope,
        @Nullable DeadLetterStore deadLetters, CarriedContext carried) {

    private static final CallContext EMPTY = new CallContext("", null, List.of(), null, "", ExecutionListener.NONE);

    /**
     * Checks that the scope and the carried context are given.
     */
    public CallContext {
        Objects.requireNonNull(idempotencyScope, "idempotencyScope");
        Objects.requireNonNull(carried, "carried");
    }

    /**
     * Creates a context that carries nothing to other threads.
     * @param method the called method's description
     * @param target the object the call is made on, or {@code null}
     * @param arguments the call's arguments
     * @param idempotencyKey the idempotency key, or the {@link IdempotencyKeyException}
     * met while working it out, or {@code null}
     * @param fingerprint what must match between calls with the same key
     * @param listener notified of this call's retries, fallbacks and outcome
     * @param idempotencyScope whose key the idempotency key is; empty for none
     * @param deadLetters where this call's dead letter goes, or {@code null} for the
     * pipeline's store
     */
    public CallContext(String method, @Nullable Object target, List<@Nullable Object> arguments,
            @Nullable Object idempotencyKey, String fingerprint, ExecutionListener listener, String idempotencyScope,
            @Nullable DeadLetterStore deadLetters) {
        this(method, target, arguments, idempotencyKey, fingerprint, listener, idempotencyScope, deadLetters,
                CarriedContext.NONE);
    }

    /**
     * Creates a context whose dead letter goes to the pipeline's store.
     * @param method the called method's description
     * @param target the object the call is made on, or {@code null}
     * @param arguments the call's arguments
     * @param idempotencyKey the idempotency key, or the {@link IdempotencyKeyException}
     * met while working it out, or {@code null}
     * @param fingerprint what must match between calls with the same key
     * @param listener notified of this call's retries, fallbacks and outcome
     * @param idempotencyScope whose key the idempotency key is; empty for none
     */
    public CallContext(String method, @Nullable Object target, List<@Nullable Object> arguments,
            @Nullable Object idempotencyKey, String fingerprint, ExecutionListener listener, String idempotencyScope) {
        this(method, target, arguments, idempotencyKey, fingerprint, listener, idempotencyScope, null);
    }

    /**
     * Creates a context whose idempotency key has no scope.
     * @param method the called method's description
     * @param target the object the call is made on, or {@code null}
     * @param arguments the call's arguments
     * @param idempotencyKey the idempotency key, or the {@link IdempotencyKeyException}
     * met while working it out, or {@code null}
     * @param fingerprint what must match between calls with the same key
     * @param listener notified of this call's retries, fallbacks and outcome
     */
    public CallContext(String method, @Nullable Object target, List<@Nullable Object> arguments,
            @Nullable Object idempotencyKey, String fingerprint, ExecutionListener listener) {
        this(method, target, arguments, idempotencyKey, fingerprint, listener, "");
    }

    /**
     * Returns a context with nothing in it, for calls without idempotency or dead
     * letters.
     * @return the empty context
     */
    public static CallContext empty() {
        return EMPTY;
    }

    /**
     * Returns the context of the call whose attempt's value a result predicate (a retry
     * policy's {@code retryOnResult}, a breaker's {@code failOnResult}) is judging, when
     * called by that predicate on its thread; so the predicate can read the call's
     * {@link #arguments()}. An asynchronous call's value is judged on the thread that
     * completes its attempt, with the same context.
     * @return the judged call's context, or {@link #empty()} outside a result predicate
     * or for a call without a context
     */
    public static CallContext judged() {
        return JudgedCalls.current();
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
     * Returns a context carrying a caller's idempotency key and fingerprint: another
     * scope's call with the same key reaches another entry of the store.
     * @param scope whose key it is, such as the authenticated caller's name; empty for
     * none
     * @param idempotencyKey the key
     * @param fingerprint what must match between calls with the same key
     * @return the context
     */
    public static CallContext idempotent(String scope, Object idempotencyKey, String fingerprint) {
        return new CallContext("", null, List.of(), idempotencyKey, fingerprint, ExecutionListener.NONE, scope);
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
     * Returns a copy of this context with another listener. It is for what belongs to
     * this call alone, such as the call's own observation, and is told after the
     * pipeline's listeners; what every call of a pipeline should tell goes to
     * {@link ResiliencePipeline.Builder#listener(ExecutionListener)}.
     * @param listener the listener for this call
     * @return the new context
     */
    public CallContext withListener(ExecutionListener listener) {
        return new CallContext(this.method, this.target, this.arguments, this.idempotencyKey, this.fingerprint,
                listener, this.idempotencyScope, this.deadLetters, this.carried);
    }

    /**
     * Returns a copy of this context whose idempotency key belongs to a scope.
     * @param scope whose key it is, such as the authenticated caller's name; empty for
     * none
     * @return the new context
     */
    public CallContext withIdempotencyScope(String scope) {
        return new CallContext(this.method, this.target, this.arguments, this.idempotencyKey, this.fingerprint,
                this.listener, scope, this.deadLetters, this.carried);
    }

    /**
     * Returns a copy of this context whose dead letter goes elsewhere than the pipeline's
     * store.
     * @param deadLetters where this call's dead letter goes; {@code null} for the
     * pipeline's store
     * @return the new context
     */
    public CallContext withDeadLetters(@Nullable DeadLetterStore deadLetters) {
        return new CallContext(this.method, this.target, this.arguments, this.idempotencyKey, this.fingerprint,
                this.listener, this.idempotencyScope, deadLetters, this.carried);
    }

    /**
     * Returns a copy of this context that carries thread-bound values to the threads that
     * run the call's later steps ({@link CarriedContext}).
     * @param carried what the call carries, captured on the caller's thread
     * @return the new context, or this one when it carries that already
     */
    public CallContext withCarried(CarriedContext carried) {
        if (carried == this.carried) {
            return this;
        }
        return new CallContext(this.method, this.target, this.arguments, this.idempotencyKey, this.fingerprint,
                this.listener, this.idempotencyScope, this.deadLetters, carried);
    }

}
