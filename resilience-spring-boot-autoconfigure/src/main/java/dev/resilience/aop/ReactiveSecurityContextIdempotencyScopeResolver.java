package dev.resilience.aop;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * Scopes the idempotency keys and last good values of calls of methods returning
 * {@code Mono} to the authenticated principal of the subscriber: its name in the security
 * context of the subscriber's Reactor {@code Context}
 * ({@link ReactiveSecurityContextHolder}, which Spring Security's WebFlux support fills).
 * When the Reactor context holds none, as for a {@code Mono} subscribed from a Spring MVC
 * handler, the principal of the subscribing thread's {@link SecurityContextHolder} is
 * read instead, unless that thread is one Reactor marks non-blocking (a Netty event loop,
 * {@code Schedulers.parallel()}), where no caller's context is kept. No scope when
 * nobody, or only an anonymous caller, is authenticated.
 */
public final class ReactiveSecurityContextIdempotencyScopeResolver implements ReactiveIdempotencyScopeResolver {

    @Override
    public Mono<String> resolveScope() {
        return ReactiveSecurityContextHolder.getContext()
            .map((context) -> CallerScope.of(SecurityContextIdempotencyScopeResolver.scopeOf(context)).name())
            .switchIfEmpty(Mono.fromSupplier(ReactiveSecurityContextIdempotencyScopeResolver::subscribingThreads));
    }

    private static String subscribingThreads() {
        if (Schedulers.isInNonBlockingThread()) {
            return "";
        }
        return CallerScope.of(SecurityContextIdempotencyScopeResolver.scopeOf(SecurityContextHolder.getContext()))
            .name();
    }

}
