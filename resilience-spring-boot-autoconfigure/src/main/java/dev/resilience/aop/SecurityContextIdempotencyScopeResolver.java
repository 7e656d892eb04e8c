package dev.resilience.aop;

import org.jspecify.annotations.Nullable;

import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * Scopes idempotency keys to the authenticated principal of Spring Security's
 * {@link SecurityContextHolder}: its name, or no scope when nobody, or only an anonymous
 * caller, is authenticated.
 */
public final class SecurityContextIdempotencyScopeResolver implements IdempotencyScopeResolver {

    @Override
    public @Nullable String resolveScope() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication == null || !authentication.isAuthenticated()
                || authentication instanceof AnonymousAuthenticationToken) {
            return null;
        }
        return authentication.getName();
    }

}
