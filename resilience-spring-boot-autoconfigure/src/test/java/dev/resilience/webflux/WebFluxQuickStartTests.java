package dev.resilience.webflux;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The README's WebFlux quick start, run as it is written: its controller, the default
 * beans (no scope resolver of the test's own, the in-memory store) and the four requests
 * whose responses the README shows, byte for byte in their bodies.
 */
@SpringBootTest(classes = WebFluxQuickStartTests.QuickStartApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.main.web-application-type=reactive")
class WebFluxQuickStartTests {

    @LocalServerPort
    private int port;

    private WebTestClient client;

    @BeforeEach
    void connect() {
        this.client = WebTestClient.bindToServer()
            .baseUrl("http://localhost:" + this.port)
            .responseTimeout(Duration.ofSeconds(30))
            .build();
    }

    @Test
    void theFourRequestsOfTheReadmeGetTheResponsesItShows() {
        this.client.post()
            .uri("/orders")
            .contentType(MediaType.APPLICATION_JSON)
            .bodyValue("{\"item\":\"book\"}")
            .exchange()
            .expectStatus()
            .isBadRequest()
            .expectHeader()
            .contentType(MediaType.APPLICATION_PROBLEM_JSON)
            .expectBody()
            .json("""
                    {"detail":"Idempotency key is missing: send it in the Idempotency-Key header",\
                    "instance":"/orders","status":400,"title":"Bad Request","problem":"idempotency-key-invalid"}""",
                    true);

        order("book").expectStatus()
            .isCreated()
            .expectHeader()
            .doesNotExist("Idempotent-Replayed")
            .expectHeader()
            .valueEquals("Location", "/orders/o-1")
            .expectBody()
            .json("{\"id\":\"o-1\",\"item\":\"book\"}", true);

        order("book").expectStatus()
            .isCreated()
            .expectHeader()
            .valueEquals("Idempotent-Replayed", "true")
            .expectHeader()
            .valueEquals("Location", "/orders/o-1")
            .expectBody()
            .json("{\"id\":\"o-1\",\"item\":\"book\"}", true);

        order("lamp").expectStatus().isEqualTo(422).expectBody().json("""
                {"detail":"This idempotency key was already used with another request payload; \
                use a new key for a new request","instance":"/orders","status":422,\
                "title":"Unprocessable Content","problem":"idempotency-key-mismatch"}""", true);
    }

    private WebTestClient.ResponseSpec order(String item) {
        return this.client.post()
            .uri("/orders")
            .header("Idempotency-Key", "7f3e")
            .contentType(MediaType.APPLICATION_JSON)
            .bodyValue("{\"item\":\"" + item + "\"}")
            .exchange();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OrderController.class)
    static class QuickStartApplication {

    }

    /** The README's controller. */
    @RestController
    static class OrderController {

        private final AtomicInteger orders = new AtomicInteger();

        @PostMapping("/orders")
        @Idempotent(key = "#key")
        public Mono<ResponseEntity<Order>> create(@RequestHeader("Idempotency-Key") String key,
                @RequestBody OrderRequest request) {
            return Mono.fromSupplier(() -> {
                Order order = new Order("o-" + this.orders.incrementAndGet(), request.item());
                return ResponseEntity.created(URI.create("/orders/" + order.id())).body(order);
            });
        }

    }

    /** What a client orders. */
    record OrderRequest(String item) {
    }

    /** The order created. */
    record Order(String id, String item) {
    }

}
