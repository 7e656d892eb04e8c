package dev.resilience.webflux;

import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;

/**
 * Idempotent WebFlux endpoints of a small order service; counts how often their bodies
 * run.
 */
@RestController
public class FluxOrderTestController {

    private final AtomicInteger runs = new AtomicInteger();

    @PostMapping("/orders")
    @Idempotent(key = "#key")
    public ResponseEntity<OrderCreated> create(@RequestHeader("Idempotency-Key") String key,
            @RequestBody OrderRequest order, ServerWebExchange exchange) {
        int run = this.runs.incrementAndGet();
        return ResponseEntity.created(URI.create("/orders/o-" + run))
            .body(new OrderCreated("o-" + run, order.item(), key));
    }

    @PostMapping("/plain-orders")
    @Idempotent(key = "#key")
    @ResponseStatus(HttpStatus.CREATED)
    public OrderCreated plain(@RequestHeader("Idempotency-Key") String key, @RequestBody OrderRequest order) {
        int run = this.runs.incrementAndGet();
        return new OrderCreated("p-" + run, order.item(), key);
    }

    @GetMapping("/tenants")
    public String tenant(@RequestHeader("X-Tenant") String tenant) {
        return tenant;
    }

    int runs() {
        return this.runs.get();
    }

    void reset() {
        this.runs.set(0);
    }

    /** What a client orders. */
    public record OrderRequest(String item) {
    }

    /** The order created for a request, with the key it was created under. */
    public record OrderCreated(String id, String item, String idempotencyKey) {
    }

}
