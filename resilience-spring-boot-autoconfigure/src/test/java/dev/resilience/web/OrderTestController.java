package dev.resilience.web;

import java.net.URI;
import java.security.Principal;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Idempotent endpoints of a small order service; counts how often their bodies run and
 * can hold a request inside the handler until released.
 */
@RestController
public class OrderTestController {

    private final AtomicInteger runs = new AtomicInteger();

    private volatile @Nullable CountDownLatch entered;

    private volatile @Nullable CountDownLatch release;

    @PostMapping("/orders")
    @Idempotent(key = "#key")
    public ResponseEntity<OrderCreated> create(@RequestHeader("Idempotency-Key") String key,
            @RequestBody OrderRequest order) throws InterruptedException {
        int run = this.runs.incrementAndGet();
        CountDownLatch entered = this.entered;
        CountDownLatch release = this.release;
        if (entered != null && release != null) {
            entered.countDown();
            release.await(10, TimeUnit.SECONDS);
        }
        return ResponseEntity.created(URI.create("/orders/o-" + run))
            .body(new OrderCreated("o-" + run, order.item(), key));
    }

    @PostMapping("/payments")
    @Idempotent(key = "#key")
    @ResponseStatus(HttpStatus.CREATED)
    public OrderCreated pay(@RequestHeader("Idempotency-Key") String key, @RequestBody OrderRequest order) {
        int run = this.runs.incrementAndGet();
        return new OrderCreated("p-" + run, order.item(), key);
    }

    @PostMapping("/receipts")
    @Idempotent(key = "T(java.util.UUID).fromString(#key)")
    @ResponseStatus(HttpStatus.CREATED)
    public OrderCreated receipt(@RequestHeader("Idempotency-Key") String key, @RequestBody OrderRequest order) {
        int run = this.runs.incrementAndGet();
        return new OrderCreated("r-" + run, order.item(), key);
    }

    @PostMapping("/signed-orders")
    @Idempotent(key = "#key")
    @ResponseStatus(HttpStatus.CREATED)
    public OrderCreated signed(@RequestHeader("Idempotency-Key") String key, @RequestBody OrderRequest order,
            HttpServletRequest request, Principal principal, Locale locale) {
        int run = this.runs.incrementAndGet();
        return new OrderCreated("s-" + run, order.item(), key);
    }

    @GetMapping("/tenants")
    public String tenant(@RequestHeader("X-Tenant") String tenant) {
        return tenant;
    }

    int runs() {
        return this.runs.get();
    }

    void holdNextRequest(CountDownLatch entered, CountDownLatch release) {
        this.entered = entered;
        this.release = release;
    }

    void reset() {
        this.runs.set(0);
        this.entered = null;
        this.release = null;
    }

    /** What a client orders. */
    public record OrderRequest(String item) {
    }

    /** The order created for a request, with the key it was created under. */
    public record OrderCreated(String id, String item, String idempotencyKey) {
    }

}
