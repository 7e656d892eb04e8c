package dev.resilience.aop;

import org.jspecify.annotations.Nullable;

/**
 * Chooses whose idempotency keys and last good values the calls of methods returning
 * {@code Mono} carry.
 */
final class SubscriberScopes {

    private SubscriberScopes() {
    }

    /**
     * Returns the resolver of the scopes of subscriptions: the application's
     * {@link ReactiveIdempotencyScopeResolver}; without one, the subscriber's security
     * context when the thread-bound scopes are the security context's, else the
     * thread-bound resolver asked on the subscribing thread.
     * @param defined the application's reactive resolver, or {@code null} for none
     * @param threads the application's thread-bound resolver
     * @return the resolver, or {@code null} when callers are not scoped
     */
    static @Nullable ReactiveIdempotencyScopeResolver of(@Nullable ReactiveIdempotencyScopeResolver defined,
            IdempotencyScopeResolver threads) {
        if (defined != null) {
            return defined;
        }
        if (threads == IdempotencyScopeResolver.NONE) {
            return null;
        }
        if (threads instanceof SecurityContextIdempotencyScopeResolver) {
            return new ReactiveSecurityContextIdempotencyScopeResolver();
        }
        return ReactiveIdempotencyScopeResolver.onSubscribingThread(threads);
    }

}
