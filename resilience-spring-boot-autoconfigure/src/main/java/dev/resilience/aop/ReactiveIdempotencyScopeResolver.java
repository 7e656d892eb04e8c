package dev.resilience.aop;

import reactor.core.publisher.Mono;

/**
 * Tells whose idempotency key, and whose last good values, a call of a method returning
 * Reactor's {@code Mono} carries: the reactive twin of {@link IdempotencyScopeResolver},
 * for callers whose identity lives in the subscriber's Reactor {@code Context} rather
 * than on a thread. The {@code Mono} it returns is subscribed once per subscription to
 * the method's {@code Mono}, before the call starts, within the subscriber's context, so
 * it reads that context with {@code Mono.deferContextual} (Spring Security's
 * {@code ReactiveSecurityContextHolder.getContext()} does).
 *
 * <p>
 * Define a bean of this type to scope the keys of reactive calls otherwise, such as by a
 * tenant the caller put in the context. Without one, calls of methods returning
 * {@code Mono} are scoped by {@link ReactiveSecurityContextIdempotencyScopeResolver} when
 * the application's {@link IdempotencyScopeResolver} is the auto-configured
 * {@link SecurityContextIdempotencyScopeResolver}, and by the application's own
 * {@link IdempotencyScopeResolver}, asked on the thread that subscribes, otherwise.
 * Implementations are thread-safe.
 */
@FunctionalInterface
public interface ReactiveIdempotencyScopeResolver {

    /**
     * Returns the scope of the call that a subscription starts.
     * @return a {@code Mono} of the scope, such as the caller's name; empty, or an empty
     * string, for none. An error fails an idempotent call, whose key cannot be worked out
     * then, and keeps and serves no last good value.
     */
    Mono<String> resolveScope();

    /**
     * Returns a resolver that asks a thread-bound resolver on the thread that subscribes.
     * @param scopes the resolver asked
     * @return the reactive resolver
     */
    static ReactiveIdempotencyScopeResolver onSubscribingThread(IdempotencyScopeResolver scopes) {
        return () -> Mono.fromSupplier(scopes::resolveScope);
    }

}
