package dev.resilience.sample.payment;

/**
 * A charge as a gateway reports it.
 *
 * @param chargeId the gateway's charge id
 * @param gateway the gateway's name
 * @param orderId the order charged
 * @param amountCents the amount charged, in cents
 */
public record GatewayCharge(String chargeId, String gateway, long orderId, long amountCents) {
}
