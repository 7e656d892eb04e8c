package dev.resilience.actuate.endpoint;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code /actuator/circuitbreakers} over HTTP, its write operation opted in. Each test
 * uses its own configured breaker.
 */
@SpringBootTest(classes = ObservabilityTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.endpoints.web.exposure.include=circuitbreakers",
                "management.endpoint.circuitbreakers.access=unrestricted",
                "resilience.circuit-breaker.instances.listed.minimum-calls=4",
                "resilience.circuit-breaker.instances.detailed.minimum-calls=4",
                "resilience.circuit-breaker.instances.detailed.record-on=java.io.IOException",
                "resilience.circuit-breaker.instances.detailed.ignore-on=java.lang.IllegalArgumentException",
                "resilience.circuit-breaker.instances.detailed.max-wait-in-half-open=90s",
                "resilience.circuit-breaker.instances.detailed.automatic-transition-to-half-open=true",
                "resilience.circuit-breaker.instances.moved.wait-in-open=2m",
                "resilience.circuit-breaker.instances.refused.minimum-calls=4" })
@DirtiesContext
class CircuitBreakersEndpointWebTests {

    @LocalServerPort
    private int port;

    @Autowired
    private ResilienceRegistry registry;

    @Test
    void listReportsEveryBreakerWithItsWindowAsNumbers() {
        CircuitBreaker listed = this.registry.findCircuitBreaker("listed").orElseThrow();
        for (int i = 0; i < 7; i++) {
            listed.onSuccess(listed.acquirePermit(), 0);
        }
        listed.onError(listed.acquirePermit(), 0, new IllegalStateException("boom"));

        ResponseEntity<String> response = http().get("/actuator/circuitbreakers");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        DocumentContext json = JsonPath.parse(response.getBody());
        assertThat(json.read("$.circuitBreakers.listed", Map.class))
            .containsExactlyInAnyOrderEntriesOf(Map.of("state", "CLOSED", "failureRate", 12.5, "slowCallRate", 0.0,
                    "failureRateThreshold", 50.0, "slowCallRateThreshold", 100.0, "bufferedCalls", 8, "failedCalls", 1,
                    "slowCalls", 0, "notPermittedCalls", 0));
        assertThat(json.read("$.circuitBreakers['payment-gateway'].failureRate", Double.class)).isEqualTo(-1.0);
        assertThat(json.read("$.circuitBreakers", Map.class)).containsKeys("moved", "refused", "detailed");
    }

    @Test
    void detailsCarryTheConfigurationAndTheRecentEventsNewestFirst() {
        CircuitBreaker detailed = this.registry.findCircuitBreaker("detailed").orElseThrow();
        detailed.transitionTo(CircuitBreakerState.FORCED_OPEN);
        for (int i = 0; i < 3; i++) {
            assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(detailed::acquirePermit);
        }
        detailed.transitionTo(CircuitBreakerState.CLOSED);

        ResponseEntity<String> response = http().get("/actuator/circuitbreakers/detailed");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        DocumentContext json = JsonPath.parse(response.getBody());
        assertThat(json.read("$.state", String.class)).isEqualTo("CLOSED");
        assertThat(json.read("$.notPermittedCalls", Integer.class)).isEqualTo(3);
        assertThat(json.read("$.config", Map.class)).containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
                Map.entry("slidingWindowType", "count"), Map.entry("slidingWindowSize", 100),
                Map.entry("minimumCalls", 4), Map.entry("failureRateThreshold", 50.0),
                Map.entry("slowCallDuration", "1m"), Map.entry("slowCallRateThreshold", 100.0),
                Map.entry("waitInOpen", "30s"), Map.entry("halfOpenCalls", 5), Map.entry("maxWaitInHalfOpen", "90s"),
                Map.entry("automaticTransitionToHalfOpen", true), Map.entry("recordOn", List.of("java.io.IOException")),
                Map.entry("ignoreOn", List.of("java.lang.IllegalArgumentException"))));
        List<Map<String, Object>> events = json.read("$.events");
        assertThat(events).hasSize(3);
        assertThat(events.get(0)).containsEntry("type", "STATE_TRANSITION")
            .containsEntry("from", "FORCED_OPEN")
            .containsEntry("to", "CLOSED");
        assertThat(events.get(1)).containsEntry("type", "NOT_PERMITTED").containsEntry("count", 3);
        assertThat(events.get(2)).containsEntry("type", "STATE_TRANSITION")
            .containsEntry("from", "CLOSED")
            .containsEntry("to", "FORCED_OPEN");
        events.forEach((event) -> assertThat(Instant.parse((String) event.get("time"))).isNotNull());
    }

    @Test
    void unknownBreakerIsNotFound() {
        assertThat(http().get("/actuator/circuitbreakers/unknown").getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(http().post("/actuator/circuitbreakers/unknown", "{\"state\": \"CLOSED\"}").getStatusCode())
            .isEqualTo(HttpStatus.NOT_FOUND);
    }

    @Test
    void postMovesTheBreakerAndReturnsItsDetails() {
        ResponseEntity<String> forced = http().post("/actuator/circuitbreakers/moved", "{\"state\": \"FORCED_OPEN\"}");

        assertThat(forced.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(JsonPath.parse(forced.getBody()).read("$.state", String.class)).isEqualTo("FORCED_OPEN");
        assertThat(JsonPath.parse(forced.getBody()).read("$.config.waitInOpen", String.class)).isEqualTo("2m");
        assertThat(this.registry.findCircuitBreaker("moved").orElseThrow().state())
            .isEqualTo(CircuitBreakerState.FORCED_OPEN);

        ResponseEntity<String> disabled = http().post("/actuator/circuitbreakers/moved", "{\"state\": \"DISABLED\"}");

        assertThat(JsonPath.parse(disabled.getBody()).read("$.state", String.class)).isEqualTo("DISABLED");
        assertThat(this.registry.findCircuitBreaker("moved").orElseThrow().state())
            .isEqualTo(CircuitBreakerState.DISABLED);
    }

    @Test
    void postWithAStateThatCannotBeSetByHandIsABadRequestListingTheAllowedStates() {
        ResponseEntity<String> response = http().post("/actuator/circuitbreakers/refused", "{\"state\": \"OPEN\"}");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(JsonPath.parse(response.getBody()).read("$.message", String.class)).contains("'OPEN'")
            .contains("CLOSED, FORCED_OPEN, DISABLED");
        assertThat(this.registry.findCircuitBreaker("refused").orElseThrow().state())
            .isEqualTo(CircuitBreakerState.CLOSED);
    }

    private Http http() {
        return new Http(this.port);
    }

}
