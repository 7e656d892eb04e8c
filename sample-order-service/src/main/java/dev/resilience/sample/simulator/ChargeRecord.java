package dev.resilience.sample.simulator;

import java.time.Instant;

/**
 * A charge a simulated gateway made, as it stands when asked.
 *
 * @param chargeId the gateway's id of the charge
 * @param gateway the gateway's name
 * @param orderId the order charged
 * @param amountCents the amount charged, in cents
 * @param idempotencyKey the key the charge was made under
 * @param chargedAt when it was recorded
 * @param status {@value #SUCCEEDED}, or {@value #PENDING} while the gateway has not
 * settled it
 */
public record ChargeRecord(String chargeId, String gateway, long orderId, long amountCents, String idempotencyKey,
        Instant chargedAt, String status) {

    /** The status of a settled charge: the card is charged. */
    public static final String SUCCEEDED = "succeeded";

    /** The status of a charge the gateway holds and has not settled yet. */
    public static final String PENDING = "pending";

    /**
     * Returns the same charge with another status.
     * @param status {@link #SUCCEEDED} or {@link #PENDING}
     * @return the charge in that status
     */
    ChargeRecord withStatus(String status) {
        return new ChargeRecord(this.chargeId, this.gateway, this.orderId, this.amountCents, this.idempotencyKey,
                this.chargedAt, status);
    }

}
