package dev.resilience.sample.payment;

import java.util.Optional;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.OnInProgress;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.ExecutionResult;
import dev.resilience.sample.order.Order;
import dev.resilience.sample.order.OrderRepository;
import dev.resilience.sample.order.OrderState;

import org.springframework.stereotype.Service;

/**
 * Pays orders: the primary gateway with retries behind a breaker, then the backup gateway
 * (behind the {@code backup-gateway} bulkhead: when it is full, the payment is deferred),
 * then a deferred payment.
 *
 * <p>
 * No order is ever charged twice, whatever fails:
 * <ul>
 * <li>{@code @Idempotent} runs {@link #pay} at most once per key at a time and replays
 * its result afterwards; a second request with the same key waits for the first and gets
 * its answer.</li>
 * <li>One payment per order at a time: a payment moves the order to
 * {@link OrderState#PAYMENT_PENDING} under its key, and a payment under another key is
 * refused until it is over.</li>
 * <li>Every request for an order carries the same gateway key, so the retries of a charge
 * that timed out after the gateway charged get that charge back instead of a new
 * one.</li>
 * <li>Only a gateway's 402 declines: its 409 (a request with the order's key is still
 * being processed) is in doubt and retried, never
 * {@link OrderState#PAYMENT_DECLINED}.</li>
 * <li>Before charging one gateway, the other is asked whether it holds a charge for the
 * order, if a request to it went unanswered; "no charge" counts only once that gateway
 * has finished with the order's key. When it cannot say in time, nobody is charged and
 * the order is {@link OrderState#PAYMENT_IN_DOUBT}, which the next payment settles.</li>
 * </ul>
 */
@Service
public class PaymentService {

    private final OrderRepository orders;

    private final GatewayClient gateways;

    private final GatewayRequestLog requests;

    /**
     * Creates the service.
     * @param orders the orders
     * @param gateways the gateways' client
     * @param requests the log of charge requests
     */
    public PaymentService(OrderRepository orders, GatewayClient gateways, GatewayRequestLog requests) {
        this.orders = orders;
        this.gateways = gateways;
        this.requests = requests;
    }

    /**
     * Pays an order through the primary gateway; the backup gateway and a deferral are
     * its fallbacks. A declined card ends the call at once, as
     * {@link OrderState#PAYMENT_DECLINED}.
     * @param orderId the order
     * @param amountCents the amount, in cents
     * @param idempotencyKey the client's idempotency key of this payment
     * @return the complete account of the call, whose value is where the order stands
     */
    @Idempotent(key = "#idempotencyKey", onInProgress = OnInProgress.WAIT)
    @Fallback(value = { "payWithBackupGateway", "deferPayment" },
            skipOn = { CardDeclinedException.class, OrderNotPayableException.class })
    @Retryable(value = "payment", abortOn = { CardDeclinedException.class, OrderNotPayableException.class })
    @CircuitGuarded(value = "payment-gateway",
            ignoreOn = { CardDeclinedException.class, OrderNotPayableException.class, ChargeInDoubtException.class })
    public ExecutionResult<Payment> pay(long orderId, long amountCents, String idempotencyKey) {
        return ExecutionResult.success(charge(Gateway.PRIMARY, orderId, amountCents, idempotencyKey));
    }

    /**
     * The first fallback: charges the backup gateway, unless the primary holds a charge
     * for the order, which then pays it.
     */
    ExecutionResult<Payment> payWithBackupGateway(long orderId, long amountCents, String idempotencyKey) {
        return ExecutionResult.success(charge(Gateway.BACKUP, orderId, amountCents, idempotencyKey));
    }

    /**
     * The last fallback: no gateway charged, so the order waits to be paid later. When a
     * gateway may have charged and could not be asked, deferring would be a lie: the
     * order is in doubt and the call fails, which writes a dead letter.
     */
    ExecutionResult<Payment> deferPayment(long orderId, long amountCents, String idempotencyKey) {
        Order order = start(orderId, idempotencyKey);
        if (order.state().isSettled()) {
            return ExecutionResult.success(Payment.of(order));
        }
        for (Gateway gateway : Gateway.values()) {
            if (this.requests.hasPending(orderId, gateway)) {
                this.orders.markUnpaid(orderId, OrderState.PAYMENT_IN_DOUBT);
                throw new ChargeInDoubtException(orderId, gateway,
                        new IllegalStateException("a charge request to it went unanswered"));
            }
        }
        return ExecutionResult.success(Payment.of(this.orders.markUnpaid(orderId, OrderState.PAYMENT_DEFERRED)));
    }

    private Payment charge(Gateway gateway, long orderId, long amountCents, String idempotencyKey) {
        Order order = start(orderId, idempotencyKey);
        if (order.state().isSettled()) {
            return Payment.of(order);
        }
        Optional<GatewayCharge> earlier = chargeHeldBy(gateway.other(), orderId);
        if (earlier.isPresent()) {
            return paid(earlier.get());
        }
        try {
            return paid(
                    (gateway == Gateway.BACKUP) ? this.gateways.chargeBackup(orderId, amountCents, order.cardToken())
                            : this.gateways.charge(gateway, orderId, amountCents, order.cardToken()));
        }
        catch (CardDeclinedException ex) {
            this.orders.markUnpaid(orderId, OrderState.PAYMENT_DECLINED);
            throw ex;
        }
    }

    private Order start(long orderId, String idempotencyKey) {
        Order order = this.orders.startPayment(orderId, idempotencyKey)
            .orElseThrow(() -> new OrderNotPayableException("No order " + orderId));
        if (order.state() == OrderState.PAYMENT_PENDING && !idempotencyKey.equals(order.paymentKey())) {
            throw new OrderNotPayableException("Order " + orderId + " is being paid under another idempotency key");
        }
        return order;
    }

    private Optional<GatewayCharge> chargeHeldBy(Gateway gateway, long orderId) {
        if (!this.requests.hasPending(orderId, gateway)) {
            return Optional.empty();
        }
        return this.gateways.find(gateway, orderId);
    }

    private Payment paid(GatewayCharge charge) {
        return Payment.of(this.orders.markPaid(charge.orderId(), charge.gateway(), charge.chargeId()));
    }

}
