package dev.resilience.core.idempotency;

/**
 * Thrown when an idempotency key is missing or malformed; see
 * {@link IdempotencyKeys#validate}.
 */
public class IdempotencyKeyException extends IdempotencyException {

    /**
     * Creates an exception saying what is wrong with the key.
     * @param message what is wrong, quoting at most the start of the key
     */
    public IdempotencyKeyException(String message) {
        super(message);
    }

}
