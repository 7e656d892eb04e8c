package dev.resilience.core.idempotency;

/**
 * Thrown when a key is reused with another fingerprint, that is with other arguments than
 * the call that first claimed it.
 */
public class IdempotencyKeyMismatchException extends IdempotencyException {

    /**
     * Creates an exception for a reused key.
     * @param key the key; the message quotes at most its first 40 characters
     */
    public IdempotencyKeyMismatchException(String key) {
        super("Idempotency key " + IdempotencyKeys.preview(key)
                + " was already used with another fingerprint (other arguments)");
    }

}
