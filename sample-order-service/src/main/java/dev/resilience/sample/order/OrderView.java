package dev.resilience.sample.order;

import org.jspecify.annotations.Nullable;

/**
 * An order as the API shows it: the card only as its token's last four characters, so
 * that whoever reads an order cannot charge its card.
 *
 * @param id the order id
 * @param customer who ordered
 * @param amountCents the amount to charge, in cents
 * @param card the card token masked to its last four characters, {@code ****4242}
 * @param state where the order stands
 * @param paymentKey the idempotency key of the payment that moved it last, if any
 * @param gateway the gateway that charged it, when paid
 * @param chargeId the gateway's charge id, when paid
 */
public record OrderView(long id, String customer, long amountCents, String card, OrderState state,
        @Nullable String paymentKey, @Nullable String gateway, @Nullable String chargeId) {

    private static final int SHOWN = 4;

    /**
     * Returns the view of an order.
     * @param order the order as stored
     * @return its view, with the card token masked
     */
    public static OrderView of(Order order) {
        return new OrderView(order.id(), order.customer(), order.amountCents(), mask(order.cardToken()), order.state(),
                order.paymentKey(), order.gateway(), order.chargeId());
    }

    /**
     * Masks a card token to its last four characters; a token of eight characters or
     * fewer is masked whole, so that at least half of it is always hidden. Characters are
     * counted as code points, so that a surrogate pair is shown whole or not at all.
     * @param cardToken the token
     * @return {@code ****} and the last four characters, or {@code ****}
     */
    static String mask(String cardToken) {
        int length = cardToken.length();
        if (cardToken.codePointCount(0, length) <= 2 * SHOWN) {
            return "****";
        }
        return "****" + cardToken.substring(cardToken.offsetByCodePoints(length, -SHOWN));
    }
}
