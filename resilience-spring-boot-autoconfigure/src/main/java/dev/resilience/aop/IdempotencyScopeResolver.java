package dev.resilience.aop;

import org.jspecify.annotations.Nullable;

/**
 * Tells whose idempotency key a call carries, so that calls of two scopes never share a
 * stored entry: another caller who sends the same key reaches an entry of their own, with
 * no replay of the first caller's result and no mismatch that reveals the key is in use.
 * The auto-configured resolver answers the name of the authenticated principal when
 * Spring Security is present ({@link SecurityContextIdempotencyScopeResolver}), else no
 * scope; define a bean of this type to scope keys otherwise, such as by tenant. Called on
 * the caller's thread before each idempotent call; implementations are thread-safe.
 */
@FunctionalInterface
public interface IdempotencyScopeResolver {

    /** A resolver that scopes no key: every caller shares the keys of a name. */
    IdempotencyScopeResolver NONE = () -> null;

    /**
     * Returns the scope of the current call.
     * @return the scope, such as the caller's name; {@code null} or empty for none
     */
    @Nullable String resolveScope();

}
