package dev.resilience.autoconfigure;

/**
 * The fingerprint secret of the test applications whose idempotency store is not the
 * in-memory one, which needs a secret to start; the instances of one application share
 * it.
 */
public final class FingerprintSecret {

    /** The property that sets it, for {@code withPropertyValues}. */
    public static final String PROPERTY = "resilience.idempotency.fingerprint-secret=test-fingerprint-secret-of-at-least-32-characters";

    private FingerprintSecret() {
    }

}
