package dev.resilience.webflux;

import java.net.URI;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * An idempotent WebFlux endpoint returning {@code Mono}; counts how often its body runs
 * and can hold a request inside it, without a thread, until released.
 */
@RestController
public class MonoOrderTestController {

    private final AtomicInteger runs = new AtomicInteger();

    private volatile @Nullable CountDownLatch entered;

    private volatile Sinks.@Nullable Empty<Void> release;

    @PostMapping("/mono-orders")
    @Idempotent(key = "#key")
    public Mono<ResponseEntity<OrderCreated>> create(@RequestHeader("Idempotency-Key") String key,
            @RequestBody OrderRequest order) {
        return Mono.defer(() -> {
            int run = this.runs.incrementAndGet();
            CountDownLatch entered = this.entered;
            Sinks.Empty<Void> release = this.release;
            Mono<Void> held = Mono.empty();
            if (entered != null && release != null) {
                entered.countDown();
                held = release.asMono();
            }
            return held.then(Mono.fromSupplier(() -> ResponseEntity.created(URI.create("/mono-orders/m-" + run))
                .body(new OrderCreated("m-" + run, order.item(), key))));
        });
    }

    int runs() {
        return this.runs.get();
    }

    void holdNextRequest(CountDownLatch entered, Sinks.Empty<Void> release) {
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
