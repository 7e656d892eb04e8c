package dev.resilience.sample.payment;

/**
 * A gateway may hold a charge for an order (a charge request went unanswered, or it
 * answered 409 because it is still processing one, or it holds the charge pending) and
 * cannot tell now, so no other gateway may charge the order, and the payment cannot be
 * called deferred either. The primary's retries ask again; when they and the fallbacks
 * cannot settle it, the call ends with its work undone, the order
 * {@code PAYMENT_IN_DOUBT}, and becomes a dead letter.
 */
public class ChargeInDoubtException extends RuntimeException {

    /**
     * Creates the exception.
     * @param orderId the order
     * @param gateway the gateway that may hold a charge
     * @param cause why it could not be asked, if it was asked
     */
    public ChargeInDoubtException(long orderId, Gateway gateway, Throwable cause) {
        super("The " + gateway.id() + " gateway may hold a charge for order " + orderId + " and cannot tell now: "
                + cause.getMessage(), cause);
    }

}
