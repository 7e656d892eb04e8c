package dev.resilience.sample.simulator;

import java.time.Instant;

/**
 * A charge a simulated gateway made.
 *
 * @param chargeId the gateway's id of the charge
 * @param gateway the gateway's name
 * @param orderId the order charged
 * @param amountCents the amount charged, in cents
 * @param idempotencyKey the key the charge was made under
 * @param chargedAt when it was made
 */
public record ChargeRecord(String chargeId, String gateway, long orderId, long amountCents, String idempotencyKey,
        Instant chargedAt) {
}
