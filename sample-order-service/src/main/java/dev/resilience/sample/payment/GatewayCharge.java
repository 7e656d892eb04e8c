package dev.resilience.sample.payment;

import org.jspecify.annotations.Nullable;

/**
 * A charge as a gateway reports it.
 *
 * @param chargeId the gateway's charge id
 * @param gateway the gateway's name
 * @param orderId the order charged
 * @param amountCents the amount charged, in cents
 * @param status {@code succeeded}, or {@code pending} while the gateway has not settled
 * the charge (a gateway that says nothing has settled it)
 */
public record GatewayCharge(String chargeId, String gateway, long orderId, long amountCents, @Nullable String status) {

    /**
     * Tells whether the gateway holds the charge without having settled it: the card may
     * yet be charged, so the order is neither paid nor free to be charged elsewhere.
     * @return {@code true} when the status is {@code pending}
     */
    public boolean pending() {
        return "pending".equals(this.status);
    }

}
