package dev.resilience.core.idempotency;

/**
 * Thrown when a key was completed by an earlier call, but its result cannot be given
 * back: it could not be stored (it cannot be encoded, or is too large), or what the store
 * holds cannot be decoded into the method's declared type. The method does not run again
 * for the key until the entry expires, so the work it did is never done twice.
 */
public class IdempotencyResultUnavailableException extends IdempotencyException {

    /**
     * Creates an exception for a completed key whose result is unavailable.
     * @param key the key; the message quotes at most its first 40 characters
     * @param reason why the result is unavailable
     */
    public IdempotencyResultUnavailableException(String key, String reason) {
        super("Idempotency key " + IdempotencyKeys.preview(key) + " was completed, but its result cannot be replayed: "
                + reason);
    }

    /**
     * Creates an exception for a completed key whose stored result cannot be decoded.
     * @param key the key; the message quotes at most its first 40 characters
     * @param reason why the result is unavailable
     * @param cause the decoding error
     */
    public IdempotencyResultUnavailableException(String key, String reason, Throwable cause) {
        super("Idempotency key " + IdempotencyKeys.preview(key) + " was completed, but its result cannot be replayed: "
                + reason, cause);
    }

}
