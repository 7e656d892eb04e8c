package dev.resilience.core.idempotency;

/**
 * Thrown by {@link IdempotencyStore#complete} when the value cannot be stored, although
 * the store itself answers: the value cannot be encoded, or is too large. The claim is
 * left as it was; the caller then completes the key with a {@link NotReplayableResult},
 * so that the method does not run again for it.
 */
public class IdempotencyResultNotStorableException extends IdempotencyException {

    /**
     * Creates an exception with a message and a cause.
     * @param message why the value cannot be stored
     * @param cause the encoding error
     */
    public IdempotencyResultNotStorableException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Creates an exception with a message.
     * @param message why the value cannot be stored
     */
    public IdempotencyResultNotStorableException(String message) {
        super(message);
    }

}
