package dev.resilience.cloud.autoconfigure;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.registry.ResilienceRegistry;
import feign.FeignException;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreakerFactory;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FallbackFactory;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real OpenFeign client and a real {@code WebClient}, through Spring Cloud
 * CircuitBreaker backed by the engine, against a local HTTP server that fails every
 * request: the breaker of the Feign method's id opens after the failures its YAML
 * configures, the Feign fallback answers, the server hears nothing more once it is open,
 * and the actuator endpoint and the state gauge show it OPEN.
 */
@SpringBootTest(classes = ResilienceCloudCircuitBreakerApplicationTests.TestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = { "spring.cloud.openfeign.circuitbreaker.enabled=true",
                "resilience.circuit-breaker.instances.InventoryClientstockString.minimum-calls=3",
                "resilience.circuit-breaker.instances.InventoryClientstockString.sliding-window-size=3",
                "resilience.circuit-breaker.instances.InventoryClientstockString.wait-in-open=1h",
                "resilience.circuit-breaker.instances.prices.minimum-calls=2",
                "resilience.circuit-breaker.instances.prices.sliding-window-size=2",
                "resilience.circuit-breaker.instances.prices.wait-in-open=1h",
                "management.endpoints.web.exposure.include=circuitbreakers" })
class ResilienceCloudCircuitBreakerApplicationTests {

    private static HttpServer server;

    private static final AtomicInteger stockRequests = new AtomicInteger();

    private static final AtomicInteger priceRequests = new AtomicInteger();

    @Autowired
    private InventoryClient inventory;

    @Autowired
    private InventoryFallbackFactory fallbacks;

    @Autowired
    private ResilienceRegistry registry;

    @Autowired
    private MeterRegistry meters;

    @Autowired
    private ReactiveCircuitBreakerFactory<?, ?> reactiveFactory;

    @LocalServerPort
    private int port;

    @BeforeAll
    static void startFailingServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/stock", (exchange) -> fail(exchange, stockRequests));
        server.createContext("/prices", (exchange) -> fail(exchange, priceRequests));
        server.start();
    }

    @AfterAll
    static void stopServer() {
        server.stop(0);
    }

    @DynamicPropertySource
    static void downstream(DynamicPropertyRegistry registry) {
        registry.add("inventory.url", () -> "http://127.0.0.1:" + server.getAddress().getPort());
    }

    private static void fail(HttpExchange exchange, AtomicInteger requests) throws IOException {
        requests.incrementAndGet();
        byte[] body = "down".getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(500, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    @Test
    void feignBreakerOpensAfterTheConfiguredFailuresAndThenTheServerHearsNothingMore() {
        for (int call = 0; call < 3; call++) {
            assertThat(this.inventory.stock("sku-1")).isEqualTo("unknown stock");
        }
        assertThat(stockRequests).hasValue(3);
        assertThat(this.fallbacks.causes).hasSize(3)
            .allSatisfy((cause) -> assertThat(cause).isInstanceOf(FeignException.InternalServerError.class));
        assertThat(this.registry.findCircuitBreaker("InventoryClientstockString").orElseThrow().state())
            .isEqualTo(CircuitBreakerState.OPEN);

        for (int call = 0; call < 5; call++) {
            assertThat(this.inventory.stock("sku-" + call)).isEqualTo("unknown stock");
        }
        assertThat(stockRequests).hasValue(3);
        assertThat(this.fallbacks.causes).hasSize(8);
        assertThat(this.fallbacks.causes.subList(3, 8))
            .allSatisfy((cause) -> assertThat(cause).isInstanceOf(CallNotPermittedException.class));

        String breakers = RestClient.create()
            .get()
            .uri("http://localhost:" + this.port + "/actuator/circuitbreakers/InventoryClientstockString")
            .retrieve()
            .body(String.class);
        assertThat(breakers).contains("\"state\":\"OPEN\"").contains("\"notPermittedCalls\":5");
        assertThat(this.meters.get("resilience.circuitbreaker.state")
            .tag("name", "InventoryClientstockString")
            .tag("state", "open")
            .gauge()
            .value()).isEqualTo(1.0);
        assertThat(this.meters.get("resilience.calls")
            .tag("name", "InventoryClientstockString")
            .tag("fallback", "true")
            .timers()
            .stream()
            .mapToLong((timer) -> timer.count())
            .sum()).isEqualTo(8);
    }

    @Test
    void webClientBreakerOpensAfterTheConfiguredFailuresAndThenTheServerHearsNothingMore() {
        WebClient client = WebClient.create("http://127.0.0.1:" + server.getAddress().getPort());
        List<Throwable> causes = new CopyOnWriteArrayList<>();
        for (int call = 0; call < 6; call++) {
            String price = this.reactiveFactory.create("prices")
                .run(client.get().uri("/prices").retrieve().bodyToMono(String.class), (error) -> {
                    causes.add(error);
                    return Mono.just("stale price");
                })
                .block(Duration.ofSeconds(10));
            assertThat(price).isEqualTo("stale price");
        }
        assertThat(priceRequests).hasValue(2);
        assertThat(causes).hasSize(6);
        assertThat(causes.subList(2, 6))
            .allSatisfy((cause) -> assertThat(cause).isInstanceOf(CallNotPermittedException.class));
        assertThat(this.registry.findCircuitBreaker("prices").orElseThrow().state())
            .isEqualTo(CircuitBreakerState.OPEN);
    }

    @FeignClient(name = "inventory", url = "${inventory.url}", fallbackFactory = InventoryFallbackFactory.class)
    interface InventoryClient {

        @GetMapping("/stock/{sku}")
        String stock(@PathVariable("sku") String sku);

    }

    static class InventoryFallbackFactory implements FallbackFactory<InventoryClient> {

        final List<Throwable> causes = new CopyOnWriteArrayList<>();

        @Override
        public InventoryClient create(Throwable cause) {
            this.causes.add(cause);
            return (sku) -> "unknown stock";
        }

    }

    @SpringBootApplication
    @EnableFeignClients(clients = InventoryClient.class)
    static class TestApplication {

        @Bean
        InventoryFallbackFactory inventoryFallbackFactory() {
            return new InventoryFallbackFactory();
        }

    }

}
