package dev.resilience.sample.payment;

import dev.resilience.sample.order.Order;
import dev.resilience.sample.order.OrderState;

import org.jspecify.annotations.Nullable;

/**
 * Where a payment left its order.
 *
 * @param orderId the order
 * @param state the order's state
 * @param gateway the gateway that charged it, when paid
 * @param chargeId the gateway's charge id, when paid
 * @param amountCents the amount, in cents
 */
public record Payment(long orderId, OrderState state, @Nullable String gateway, @Nullable String chargeId,
        long amountCents) {

    /**
     * Returns the payment an order records.
     * @param order the order
     * @return its payment
     */
    public static Payment of(Order order) {
        return new Payment(order.id(), order.state(), order.gateway(), order.chargeId(), order.amountCents());
    }
}
