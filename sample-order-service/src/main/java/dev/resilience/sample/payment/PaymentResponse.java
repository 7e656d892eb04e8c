package dev.resilience.sample.payment;

import dev.resilience.core.ExecutionResult;
import dev.resilience.sample.order.OrderState;

import org.jspecify.annotations.Nullable;

/**
 * The answer to {@code POST /orders/{id}/payment}: where the order stands, and how the
 * call got there.
 *
 * @param orderId the order
 * @param state the order's state
 * @param gateway the gateway that charged it, when paid
 * @param chargeId the gateway's charge id, when paid
 * @param amountCents the amount, in cents
 * @param outcome the call's status: {@code SUCCESS}, {@code FAILURE} (declined),
 * {@code ERROR} or {@code TIMEOUT}
 * @param attempts how many times the primary gateway was tried in this call
 * @param fallback the fallback that produced the result, if any
 * @param replayed whether the result was replayed for a repeated idempotency key
 * @param deadLetterId the dead letter written for the call, if its work was left undone
 * @param error the final error's message, when the call did not succeed
 */
public record PaymentResponse(long orderId, OrderState state, @Nullable String gateway, @Nullable String chargeId,
        long amountCents, String outcome, int attempts, @Nullable String fallback, boolean replayed,
        @Nullable String deadLetterId, @Nullable String error) {

    /**
     * Builds the response of a call.
     * @param payment where the order stands
     * @param result the call's account
     * @return the response
     */
    public static PaymentResponse of(Payment payment, ExecutionResult<Payment> result) {
        Throwable error = result.error();
        return new PaymentResponse(payment.orderId(), payment.state(), payment.gateway(), payment.chargeId(),
                payment.amountCents(), result.status().name(), result.attempts(),
                (String) result.metadata().get(ExecutionResult.FALLBACK_NAME), result.replayed(),
                (String) result.metadata().get(ExecutionResult.DEAD_LETTER_ID),
                (error != null) ? error.getMessage() : null);
    }
}
