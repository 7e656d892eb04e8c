package dev.resilience.sample.payment;

import dev.resilience.core.ExecutionResult;
import dev.resilience.core.idempotency.IdempotencyException;
import dev.resilience.sample.order.Order;
import dev.resilience.sample.order.OrderRepository;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code POST /orders/{id}/payment} with an {@code Idempotency-Key} header: 200 with the
 * payment (paid, deferred or declined), 502 when the payment's work was left undone (in
 * doubt, and a dead letter), or a problem: 404 for an unknown order, 409 while another
 * payment of the order is running. The errors of the idempotency key are thrown as they
 * are, and the starter's idempotency support answers them with its problem responses: 400
 * for a bad key, 409 while the same key's payment runs, 422 for a key reused for another
 * order, 503 when the idempotency store is down.
 */
@RestController
public class PaymentController {

    private final OrderRepository orders;

    private final PaymentService payments;

    /**
     * Creates the controller.
     * @param orders the orders
     * @param payments the payment service
     */
    public PaymentController(OrderRepository orders, PaymentService payments) {
        this.orders = orders;
        this.payments = payments;
    }

    /**
     * Pays an order.
     * @param id the order id
     * @param idempotencyKey the client's key of this payment; a repeated request with the
     * same key gets the first one's answer
     * @return the payment, or a problem
     */
    @PostMapping("/orders/{id}/payment")
    public ResponseEntity<?> pay(@PathVariable long id, @RequestHeader("Idempotency-Key") String idempotencyKey) {
        Order order = this.orders.find(id)
            .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "No order " + id));
        ExecutionResult<Payment> result = this.payments.pay(id, order.amountCents(), idempotencyKey)
            .throwIf(IdempotencyException.class);
        Throwable error = result.error();
        if (error instanceof OrderNotPayableException notPayable) {
            return ResponseEntity.status(HttpStatus.CONFLICT)
                .body(ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, notPayable.getMessage()));
        }
        Payment payment = result.value();
        if (payment == null) {
            payment = Payment.of(this.orders.find(id).orElseThrow());
        }
        boolean answered = result.isSuccess() || error instanceof CardDeclinedException;
        return ResponseEntity.status(answered ? HttpStatus.OK : HttpStatus.BAD_GATEWAY)
            .body(PaymentResponse.of(payment, result));
    }

}
