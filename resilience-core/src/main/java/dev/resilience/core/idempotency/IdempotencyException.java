package dev.resilience.core.idempotency;

/**
 * The base of every exception with which an idempotent call is refused or its store
 * fails.
 */
public class IdempotencyException extends RuntimeException {

    /**
     * Creates an exception with a message.
     * @param message what went wrong
     */
    public IdempotencyException(String message) {
        super(message);
    }

    /**
     * Creates an exception with a message and a cause.
     * @param message what went wrong
     * @param cause the underlying error
     */
    public IdempotencyException(String message, Throwable cause) {
        super(message, cause);
    }

}
