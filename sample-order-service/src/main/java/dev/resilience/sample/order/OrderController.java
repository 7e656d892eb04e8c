package dev.resilience.sample.order;

import java.net.URI;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code POST /orders} and {@code GET /orders/{id}}. Orders are answered as
 * {@link OrderView}s: the card token never leaves the service whole.
 */
@RestController
public class OrderController {

    private final OrderRepository orders;

    /**
     * Creates the controller.
     * @param orders the orders
     */
    public OrderController(OrderRepository orders) {
        this.orders = orders;
    }

    /**
     * Creates an order.
     * @param order the customer, amount and card token
     * @return 201 with the order and its location; 400 when a field is missing or the
     * amount is not positive
     */
    @PostMapping("/orders")
    public ResponseEntity<OrderView> create(@RequestBody NewOrder order) {
        if (order.customer() == null || order.customer().isBlank() || order.cardToken() == null
                || order.cardToken().isBlank() || order.amountCents() <= 0) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                    "customer, cardToken and a positive amountCents are required");
        }
        Order created = this.orders.create(order.customer(), order.amountCents(), order.cardToken());
        return ResponseEntity.created(URI.create("/orders/" + created.id())).body(OrderView.of(created));
    }

    /**
     * Reads an order.
     * @param id the order id
     * @return the order
     * @throws ResponseStatusException 404 when there is no such order
     */
    @GetMapping("/orders/{id}")
    public OrderView get(@PathVariable long id) {
        return this.orders.find(id)
            .map(OrderView::of)
            .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "No order " + id));
    }

}
