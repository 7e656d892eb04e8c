package dev.resilience.aop;

import dev.resilience.core.idempotency.IdempotencyKeyException;
import org.jspecify.annotations.Nullable;

/**
 * The caller's scope of one call, as a scope resolver answered it
 * ({@link IdempotencyScopeResolver} on the calling thread,
 * {@link ReactiveIdempotencyScopeResolver} in a subscriber's Reactor context): the scope
 * itself, or the failure of the resolver, which an idempotent call fails with and a call
 * keeping last good values keeps and is served nothing for.
 *
 * @param name the scope, empty for none
 * @param failure what the resolver threw or signalled, or {@code null} when it answered
 */
record CallerScope(String name, @Nullable Throwable failure) {

    /** No scope: every caller shares the keys of a name. */
    static final CallerScope NONE = new CallerScope("", null);

    /**
     * Returns the scope a resolver answered.
     * @param name the scope; {@code null} or empty for none
     * @return the scope
     */
    static CallerScope of(@Nullable String name) {
        return (name == null || name.isEmpty()) ? NONE : new CallerScope(name, null);
    }

    /**
     * Returns the scope of a call whose resolver failed.
     * @param failure what the resolver threw or signalled
     * @return the scope
     */
    static CallerScope failed(Throwable failure) {
        return new CallerScope("", failure);
    }

    /**
     * Asks a resolver on this thread.
     * @param scopes the resolver
     * @return its scope, or its failure
     */
    static CallerScope resolve(IdempotencyScopeResolver scopes) {
        try {
            return of(scopes.resolveScope());
        }
        catch (RuntimeException ex) {
            return failed(ex);
        }
    }

    /**
     * Returns the scope of an idempotency key.
     * @param description the called method, for the error
     * @return the scope, empty for none
     * @throws IdempotencyKeyException when the resolver failed: the key cannot be worked
     * out
     */
    String idempotencyScope(String description) {
        Throwable failed = this.failure;
        if (failed != null) {
            throw new IdempotencyKeyException("Idempotency key of " + description
                    + " cannot be worked out: its scope resolver threw " + failed.getClass().getSimpleName());
        }
        return this.name;
    }

    /**
     * Returns the scope of a last good value.
     * @return the scope, empty for none, or {@link LastGoodKeys#UNRESOLVED_SCOPE} when
     * the resolver failed, which keeps and is served nothing
     */
    String lastGoodScope() {
        return (this.failure != null) ? LastGoodKeys.UNRESOLVED_SCOPE : this.name;
    }

}
