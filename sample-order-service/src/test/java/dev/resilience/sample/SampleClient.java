package dev.resilience.sample;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.resilience.sample.order.OrderView;
import dev.resilience.sample.payment.PaymentResponse;
import dev.resilience.sample.simulator.ChargeRecord;
import dev.resilience.sample.simulator.FaultInjector;
import dev.resilience.sample.simulator.SimulatorReport;
import tools.jackson.databind.JsonNode;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/**
 * The application's HTTP API as the tests use it: real requests to the random port, and
 * no exception for an error status, so that tests can assert on it.
 */
final class SampleClient {

    private final RestClient http;

    SampleClient(int port) {
        this.http = RestClient.builder()
            .baseUrl("http://localhost:" + port)
            .defaultStatusHandler(HttpStatusCode::isError, (request, response) -> {
            })
            .build();
    }

    /** Clears every fault and closes both breakers. */
    void reset() {
        for (String target : FaultInjector.TARGETS) {
            faults(target, 0, 0, false);
        }
        for (String breaker : List.of("payment-gateway", "price-oracle")) {
            this.http.post()
                .uri("/actuator/circuitbreakers/{name}", breaker)
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("state", "CLOSED"))
                .retrieve()
                .toBodilessEntity();
        }
    }

    void faults(String target, double failureRate, long latencyMs, boolean outage) {
        this.http.post()
            .uri("/simulator/faults")
            .contentType(MediaType.APPLICATION_JSON)
            .body(Map.of("target", target, "failureRate", failureRate, "latencyMs", latencyMs, "outage", outage))
            .retrieve()
            .toBodilessEntity();
    }

    /**
     * Makes a gateway process every new charge for {@code millis} before recording it.
     */
    void processing(String gateway, long millis) {
        this.http.post()
            .uri("/simulator/faults")
            .contentType(MediaType.APPLICATION_JSON)
            .body(Map.of("target", gateway, "processingMs", millis))
            .retrieve()
            .toBodilessEntity();
    }

    /**
     * Makes a gateway fail a share of its calls and record a share of its new charges
     * pending, each settling {@code settleMs} after it was recorded.
     */
    void pendingCharges(String gateway, double failureRate, double pendingRate, long settleMs) {
        this.http.post()
            .uri("/simulator/faults")
            .contentType(MediaType.APPLICATION_JSON)
            .body(Map.of("target", gateway, "failureRate", failureRate, "pendingRate", pendingRate, "settleMs",
                    settleMs))
            .retrieve()
            .toBodilessEntity();
    }

    void forceBreaker(String name, String state) {
        this.http.post()
            .uri("/actuator/circuitbreakers/{name}", name)
            .contentType(MediaType.APPLICATION_JSON)
            .body(Map.of("state", state))
            .retrieve()
            .toBodilessEntity();
    }

    JsonNode createOrderJson(String cardToken) {
        return this.http.post()
            .uri("/orders")
            .contentType(MediaType.APPLICATION_JSON)
            .body(Map.of("customer", "test", "amountCents", 1250, "cardToken", cardToken))
            .retrieve()
            .body(JsonNode.class);
    }

    OrderView createOrder(String cardToken) {
        return this.http.post()
            .uri("/orders")
            .contentType(MediaType.APPLICATION_JSON)
            .body(Map.of("customer", "test", "amountCents", 1250, "cardToken", cardToken))
            .retrieve()
            .body(OrderView.class);
    }

    OrderView order(long id) {
        return this.http.get().uri("/orders/{id}", id).retrieve().body(OrderView.class);
    }

    ResponseEntity<PaymentResponse> pay(long orderId, String key) {
        return this.http.post()
            .uri("/orders/{id}/payment", orderId)
            .header("Idempotency-Key", key)
            .retrieve()
            .toEntity(PaymentResponse.class);
    }

    ResponseEntity<JsonNode> payExpectingProblem(long orderId, String key) {
        return this.http.post()
            .uri("/orders/{id}/payment", orderId)
            .header("Idempotency-Key", key)
            .retrieve()
            .toEntity(JsonNode.class);
    }

    SimulatorReport report() {
        return this.http.get().uri("/simulator/report").retrieve().body(SimulatorReport.class);
    }

    long requests(String target) {
        return report().requests().get(target);
    }

    List<ChargeRecord> charges(String gateway) {
        return this.http.get()
            .uri("/sim/gateways/{name}/charges", gateway)
            .retrieve()
            .body(new ParameterizedTypeReference<List<ChargeRecord>>() {
            });
    }

    List<ChargeRecord> charges(long orderId) {
        return Stream.of("primary", "backup")
            .flatMap((gateway) -> charges(gateway).stream())
            .filter((charge) -> charge.orderId() == orderId)
            .toList();
    }

    JsonNode get(String path) {
        return this.http.get().uri(path).retrieve().body(JsonNode.class);
    }

    String breakerState(String name) {
        return get("/actuator/circuitbreakers").get("circuitBreakers").get(name).get("state").asString();
    }

}
