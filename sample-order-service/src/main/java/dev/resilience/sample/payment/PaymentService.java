package dev.resilience.sample.payment;

import java.util.Optional;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.OnInProgress;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.RejectedResultException;
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
 * <li>A charge the gateway answers pending is no payment yet: the order is
 * {@link OrderState#PAYMENT_IN_DOUBT}, the attempt counts against the gateway's breaker
 * and the primary is asked again under the same key, which its dedupe makes safe. Still
 * pending after the last attempt, the payment ends in doubt without a fallback: the
 * backup would charge the card again when the primary's charge settles.</li>
 * <li>Before charging one gateway, the other is asked whether it holds a charge for the
 * order, if a request to it went unanswered or was answered pending; "no charge" counts
 * only once that gateway has finished with the order's key, and a charge only once it is
 * settled. When it cannot say in time, nobody is charged and the order is
 * {@link OrderState#PAYMENT_IN_DOUBT}, which the next payment settles.</li>
 * </ul>
 */
@Service
public class PaymentService {

    /**
     * Whether a payment is still in doubt after an attempt: the gateway answered its
     * charge pending.
     */
    static final String CHARGE_PENDING = "#result.state().name() == 'PAYMENT_IN_DOUBT'";

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
     * {@link OrderState#PAYMENT_DECLINED}. A charge the primary answers pending is asked
     * for again, and counts as a failure of the primary; still pending after the last
     * attempt, the call ends ERROR with a {@link RejectedResultException}, no fallback
     * runs, and the order stays {@link OrderState#PAYMENT_IN_DOUBT}.
     * @param orderId the order
     * @param amountCents the amount, in cents
     * @param idempotencyKey the client's idempotency key of this payment
     * @return the complete account of the call, whose value is where the order stands
     */
    @Idempotent(key = "#idempotencyKey", onInProgress = OnInProgress.WAIT)
    @Fallback(value = { "payWithBackupGateway", "deferPayment" },
            skipOn = { CardDeclinedException.class, OrderNotPayableException.class, RejectedResultException.class })
    @Retryable(value = "payment", abortOn = { CardDeclinedException.class, OrderNotPayableException.class },
            retryOnResult = CHARGE_PENDING)
    @CircuitGuarded(value = "payment-gateway",
            ignoreOn = { CardDeclinedException.class, OrderNotPayableException.class, ChargeInDoubtException.class },
            failOnResult = CHARGE_PENDING)
    public ExecutionResult<Payment> pay(long orderId, long amountCents, String idempotencyKey) {
        return ExecutionResult.success(charge(Gateway.PRIMARY, orderId, amountCents, idempotencyKey));
    }

    /**
     * The first fallback: charges the backup gateway, unless the primary holds a charge
     * for the order, which then pays it. A charge the backup answers pending leaves the
     * order in doubt, for the next fallback to find.
     */
    ExecutionResult<Payment> payWithBackupGateway(long orderId, long amountCents, String idempotencyKey) {
        Payment payment = charge(Gateway.BACKUP, orderId, amountCents, idempotencyKey);
        if (payment.state() == OrderState.PAYMENT_IN_DOUBT) {
            throw new ChargeInDoubtException(orderId, Gateway.BACKUP,
                    new IllegalStateException("it answered the charge pending"));
        }
        return ExecutionResult.success(payment);
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
            GatewayCharge charge = (gateway == Gateway.BACKUP)
                    ? this.gateways.chargeBackup(orderId, amountCents, order.cardToken())
                    : this.gateways.charge(gateway, orderId, amountCents, order.cardToken());
            return charge.pending() ? Payment.of(this.orders.markUnpaid(orderId, OrderState.PAYMENT_IN_DOUBT))
                    : paid(charge);
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
