package dev.resilience.web;

import java.lang.reflect.Type;
import java.time.Duration;

import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.IdempotencyStoreException;
import org.jspecify.annotations.Nullable;

/**
 * An idempotency store that delegates to another until it is switched down, then throws
 * {@link IdempotencyStoreException} as an unreachable store does.
 */
public final class SwitchableIdempotencyStore implements IdempotencyStore {

    private final IdempotencyStore delegate;

    private volatile boolean down;

    /**
     * Creates a store that is up.
     * @param delegate the store to delegate to while up
     */
    public SwitchableIdempotencyStore(IdempotencyStore delegate) {
        this.delegate = delegate;
    }

    /**
     * Switches the store down or up again.
     * @param down {@code true} to throw on every call
     */
    public void down(boolean down) {
        this.down = down;
    }

    @Override
    public ClaimResult claim(String key, String fingerprint, Duration lease) {
        check();
        return this.delegate.claim(key, fingerprint, lease);
    }

    @Override
    public boolean complete(String key, String ownerToken, @Nullable Object value, Duration ttl) {
        check();
        return this.delegate.complete(key, ownerToken, value, ttl);
    }

    @Override
    public boolean complete(String key, String ownerToken, @Nullable Object value, Type type, Duration ttl) {
        check();
        return this.delegate.complete(key, ownerToken, value, type, ttl);
    }

    @Override
    public boolean release(String key, String ownerToken) {
        check();
        return this.delegate.release(key, ownerToken);
    }

    private void check() {
        if (this.down) {
            throw new IdempotencyStoreException("Connection refused: idempotency-store.internal:6379");
        }
    }

}
