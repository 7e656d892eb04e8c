package dev.resilience.sample.simulator;

/**
 * The body of a charge request to a simulated gateway.
 *
 * @param orderId the order to charge
 * @param amountCents the amount, in cents
 * @param cardToken the card's token
 */
public record ChargeRequest(long orderId, long amountCents, String cardToken) {
}
