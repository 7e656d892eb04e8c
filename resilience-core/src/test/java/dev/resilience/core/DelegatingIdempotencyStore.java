package dev.resilience.core;

import java.time.Duration;

import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.IdempotencyStore;
import org.jspecify.annotations.Nullable;

/**
 * An idempotency store that does what another does, for tests to change one of its
 * operations.
 */
class DelegatingIdempotencyStore implements IdempotencyStore {

    protected final IdempotencyStore delegate;

    DelegatingIdempotencyStore(IdempotencyStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public ClaimResult claim(String key, String fingerprint, Duration lease) {
        return this.delegate.claim(key, fingerprint, lease);
    }

    @Override
    public boolean complete(String key, String ownerToken, @Nullable Object value, Duration ttl) {
        return this.delegate.complete(key, ownerToken, value, ttl);
    }

    @Override
    public boolean release(String key, String ownerToken) {
        return this.delegate.release(key, ownerToken);
    }

}
