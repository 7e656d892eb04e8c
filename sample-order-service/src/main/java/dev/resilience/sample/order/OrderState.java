package dev.resilience.sample.order;

/**
 * The states of an order on its way to being paid.
 */
public enum OrderState {

    /** Created, not yet paid. */
    NEW,

    /** A payment is running under the order's payment key. */
    PAYMENT_PENDING,

    /** Charged once, by the gateway and under the charge id the order holds. */
    PAID,

    /**
     * No gateway could charge it and none holds a charge for it; it can be paid later.
     */
    PAYMENT_DEFERRED,

    /** The gateway declined the card (its 402); final, and no charge exists. */
    PAYMENT_DECLINED,

    /**
     * A gateway may have charged it but could not be asked, or was still processing its
     * charge when the payment's time was up, or holds its charge pending; paying again
     * with any key settles it without charging twice.
     */
    PAYMENT_IN_DOUBT;

    /**
     * Returns whether the order's payment has a final outcome.
     * @return {@code true} when paid or declined
     */
    public boolean isSettled() {
        return this == PAID || this == PAYMENT_DECLINED;
    }

}
