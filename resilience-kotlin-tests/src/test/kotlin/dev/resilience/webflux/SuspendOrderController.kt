package dev.resilience.webflux

import dev.resilience.annotation.Idempotent
import java.net.URI
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.yield
import org.springframework.http.ResponseEntity
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestBody
import org.springframework.web.bind.annotation.RequestHeader
import org.springframework.web.bind.annotation.RestController

/** Idempotent `suspend` handlers, counting the runs of their bodies. */
@RestController
class SuspendOrderController {

    private val runs = AtomicInteger()

    fun runs(): Int = runs.get()

    fun reset() = runs.set(0)

    @PostMapping("/suspend-orders")
    @Idempotent(key = "#key")
    suspend fun create(
        @RequestHeader("Idempotency-Key") key: String,
        @RequestBody order: OrderRequest,
    ): ResponseEntity<OrderCreated> {
        val run = runs.incrementAndGet()
        yield()
        return ResponseEntity.created(URI.create("/suspend-orders/s-$run")).body(OrderCreated("s-$run", order.item, key))
    }

    /** What a client orders. */
    class OrderRequest(var item: String = "")

    /** The order created for a request, with the key it was created under. */
    class OrderCreated(var id: String = "", var item: String = "", var idempotencyKey: String = "")

}
