package dev.resilience.sample.order;

import org.jspecify.annotations.Nullable;

/**
 * An order as stored.
 *
 * @param id the order id
 * @param customer who ordered
 * @param amountCents the amount to charge, in cents
 * @param cardToken the token of the card to charge
 * @param state where the order stands
 * @param paymentKey the idempotency key of the payment that moved it last, if any
 * @param gateway the gateway that charged it, when paid
 * @param chargeId the gateway's charge id, when paid
 */
public record Order(long id, String customer, long amountCents, String cardToken, OrderState state,
        @Nullable String paymentKey, @Nullable String gateway, @Nullable String chargeId) {
}
