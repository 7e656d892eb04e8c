package dev.resilience.autoconfigure;

import dev.resilience.aop.IdempotencyFingerprints;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.lastgood.InMemoryLastGoodStore;
import dev.resilience.core.lastgood.LastGoodStore;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.jspecify.annotations.Nullable;

/**
 * Chooses the secret of the fingerprints:
 * {@code resilience.idempotency.fingerprint-secret} when set; a random one per start when
 * the store is the in-memory one, which no other instance reads; else the start fails,
 * since instances sharing a store must share the secret. The secret is never logged nor
 * quoted in a message.
 */
final class IdempotencyFingerprintSecret {

    static final String PROPERTY = "resilience.idempotency.fingerprint-secret";

    private IdempotencyFingerprintSecret() {
    }

    static IdempotencyFingerprints fingerprints(ResilienceProperties properties, @Nullable IdempotencyStore store) {
        return fingerprints(properties, store, null);
    }

    static IdempotencyFingerprints fingerprints(ResilienceProperties properties, @Nullable IdempotencyStore store,
            @Nullable LastGoodStore lastGoodStore) {
        String secret = properties.getIdempotency().getFingerprintSecret();
        if (secret != null && !secret.isEmpty()) {
            return IdempotencyFingerprints.withSecret(secret);
        }
        boolean sharedLastGood = lastGoodStore != null && !(lastGoodStore instanceof InMemoryLastGoodStore);
        if ((store == null || store instanceof InMemoryIdempotencyStore) && !sharedLastGood) {
            return IdempotencyFingerprints.withRandomSecret();
        }
        Object shared = (sharedLastGood) ? lastGoodStore : store;
        String what = (sharedLastGood) ? "the last good value store " : "the idempotency store ";
        throw new InvalidResiliencePolicyException("resilience.idempotency", PROPERTY, "(not set)",
                what + shared.getClass().getName() + " may be shared by several instances, whose "
                        + "fingerprints must be keyed by one secret; without it a fingerprint read from the store "
                        + "could be tested against guessed arguments",
                "Set " + PROPERTY + " to a random secret of at least " + IdempotencyFingerprints.MIN_SECRET_LENGTH
                        + " characters, the same on every instance and kept out of the source, for example from the "
                        + "environment variable RESILIENCE_IDEMPOTENCY_FINGERPRINTSECRET (made with "
                        + "'openssl rand -base64 48'). Changing it makes the stored fingerprints mismatch until their "
                        + "entries expire.");
    }

}
