package dev.resilience.sample.payment;

/**
 * A gateway refused the card (a 4xx answer): a final business outcome, never retried, never
 * sent to the backup gateway.
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
