package dev.resilience.sample.payment;

/**
 * A gateway refused the card (its 402 answer, the only final one): a business outcome,
 * never retried, never sent to the backup gateway.
 */
public class CardDeclinedException extends RuntimeException {

    /**
     * Creates the exception.
     * @param orderId the order whose card was declined
     * @param gateway the gateway that declined it
     * @param status the gateway's HTTP status
     */
    public CardDeclinedException(long orderId, Gateway gateway, int status) {
        super("The " + gateway.id() + " gateway declined the card of order " + orderId + " (HTTP " + status + ")");
    }

}
