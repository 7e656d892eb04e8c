package dev.resilience.sample.payment;

/**
 * An order cannot be paid now: it does not exist, or another payment of it, under another
 * idempotency key, is running. Final for this call; never retried.
 */
public class OrderNotPayableException extends RuntimeException {

    /**
     * Creates the exception.
     * @param message why
     */
    public OrderNotPayableException(String message) {
        super(message);
    }

}
