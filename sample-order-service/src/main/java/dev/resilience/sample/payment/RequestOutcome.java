package dev.resilience.sample.payment;

/**
 * What became of a charge request sent to a gateway.
 */
public enum RequestOutcome {

    /**
     * Sent, no answer yet or never, or answered 409 (an earlier request with the key is
     * still being processed), or answered with a charge the gateway holds pending: the
     * gateway may have charged, or will.
     */
    PENDING,

    /** The gateway charged. */
    CHARGED,

    /**
     * The gateway answered that it did not charge (5xx, or no charge found for the key).
     */
    NOT_CHARGED,

    /** The gateway declined the card (402). */
    DECLINED

}
