package dev.resilience.sample.order;

import org.jspecify.annotations.Nullable;

/**
 * The body of {@code POST /orders}.
 *
 * @param customer who orders
 * @param amountCents the amount, in cents, more than zero
 * @param cardToken the token of the card to charge ({@code tok_declined} is always
 * declined)
 */
public record NewOrder(@Nullable String customer, long amountCents, @Nullable String cardToken) {
}
