package dev.resilience.core.idempotency;

/**
 * Thrown when the idempotency store cannot answer: it is unreachable, failed, or is full.
 * The protected method does not run (fail closed).
 */
public class IdempotencyStoreException extends IdempotencyException {

    /**
     * Creates an exception with a message.
     * @param message what went wrong
     */
    public IdempotencyStoreException(String message) {
        super(message);
    }

    /**
     * Creates an exception with a message and a cause.
     * @param message what went wrong
     * @param cause the underlying error, such as a connection failure
     */
    public IdempotencyStoreException(String message, Throwable cause) {
        super(message, cause);
    }

}
