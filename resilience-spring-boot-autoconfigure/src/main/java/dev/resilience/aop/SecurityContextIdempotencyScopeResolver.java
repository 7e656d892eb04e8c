package dev.resilience.aop;

import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.util.ClassUtils;

/**
 * Scopes idempotency keys to the authenticated principal of Spring Security's
 * {@link SecurityContextHolder}: its name, or no scope when nobody, or only an anonymous
 * caller, is authenticated.
 *
 * <p>
 * On a thread Reactor marks non-blocking (a WebFlux handler's Netty event loop), where
 * the caller's security context lives in the Reactor context and never on the thread, a
 * call that finds nobody authenticated fails instead: its idempotent call with
 * {@code IdempotencyKeyException}, and its last good value is neither kept nor served, so
 * that the callers of a method not returning {@code Mono} called from a reactive handler
 * never share keys or values. The first such call logs why, at WARN.
 */
public final class SecurityContextIdempotencyScopeResolver implements IdempotencyScopeResolver {

    private static final Log logger = LogFactory.getLog(SecurityContextIdempotencyScopeResolver.class);

    private static final String NON_BLOCKING = "reactor.core.scheduler.NonBlocking";

    private static final @Nullable Class<?> nonBlocking = ClassUtils.isPresent(NON_BLOCKING,
            SecurityContextIdempotencyScopeResolver.class.getClassLoader())
                    ? ClassUtils.resolveClassName(NON_BLOCKING,
                            SecurityContextIdempotencyScopeResolver.class.getClassLoader())
                    : null;

    private final AtomicBoolean told = new AtomicBoolean();

    /**
     * Returns the name of the principal authenticated on this thread.
     * @return the name, or {@code null} when nobody, or only an anonymous caller, is
     * authenticated
     * @throws IllegalStateException when nobody is authenticated on a thread Reactor
     * marks non-blocking
     */
    @Override
    public @Nullable String resolveScope() {
        String scope = scopeOf(SecurityContextHolder.getContext());
        Class<?> reactive = nonBlocking;
        if (scope == null && reactive != null && reactive.isInstance(Thread.currentThread())) {
            String reason = "The caller of an @Idempotent or @Fallback(lastGood) method cannot be read on "
                    + Thread.currentThread().getName() + ", a non-blocking Reactor thread: a reactive caller's "
                    + "security context is in the Reactor context, which only a method returning Mono sees. Return "
                    + "Mono from the method, or define an IdempotencyScopeResolver bean.";
            if (this.told.compareAndSet(false, true)) {
                logger.warn(reason);
            }
            throw new IllegalStateException(reason);
        }
        return scope;
    }

    /**
     * Returns the scope of a security context.
     * @param context the context
     * @return the name of its authenticated principal, or {@code null} when nobody, or
     * only an anonymous caller, is authenticated
     */
    static @Nullable String scopeOf(SecurityContext context) {
        Authentication authentication = context.getAuthentication();
        if (authentication == null || !authentication.isAuthenticated()
                || authentication instanceof AnonymousAuthenticationToken) {
            return null;
        }
        return authentication.getName();
    }

}
