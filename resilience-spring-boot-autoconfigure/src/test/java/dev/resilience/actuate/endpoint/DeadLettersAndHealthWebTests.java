package dev.resilience.actuate.endpoint;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.resilience.actuate.endpoint.ObservabilityTestApplication.Payments;
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
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@code /actuator/deadletters} and the {@code circuitBreakers} health contributor over
 * HTTP.
 */
@SpringBootTest(classes = ObservabilityTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.endpoints.web.exposure.include=health,deadletters",
                "management.endpoint.deadletters.access=unrestricted", "resilience.dead-letter.show-values=always",
                "management.health.redis.enabled=false", "management.endpoint.health.show-details=always",
                "resilience.retry.instances.shipping.max-attempts=3",
                "resilience.circuit-breaker.instances.inventory.minimum-calls=4" })
@DirtiesContext
class DeadLettersAndHealthWebTests {

    @LocalServerPort
    private int port;

    @Autowired
    private Payments payments;

    @Autowired
    private ResilienceRegistry registry;

    @Test
    void deadLettersAreListedNewestFirstFoundByIdAndDeleted() {
        assertThatIllegalStateException().isThrownBy(() -> this.payments.ship("order-1"));
        assertThatIllegalStateException().isThrownBy(() -> this.payments.ship("order-2"));

        ResponseEntity<String> list = http().get("/actuator/deadletters");

        assertThat(list.getStatusCode()).isEqualTo(HttpStatus.OK);
        List<Map<String, Object>> deadLetters = JsonPath.parse(list.getBody()).read("$.deadLetters");
        assertThat(deadLetters).hasSize(2);
        Map<String, Object> newest = deadLetters.get(0);
        assertThat(newest).containsEntry("name", "shipping")
            .containsEntry("method", "Payments#ship")
            .containsEntry("errorClass", IllegalStateException.class.getName())
            .containsEntry("errorMessage", "carrier down for order-2")
            .containsEntry("attempts", 3)
            .containsEntry("status", "ERROR")
            .containsKeys("id", "arguments", "firstAttemptAt", "lastAttemptAt");
        assertThat((List<?>) newest.get("arguments")).hasSize(1);
        assertThat(newest.get("arguments").toString()).contains("order-2");
        assertThat(Instant.parse((String) newest.get("lastAttemptAt")))
            .isAfterOrEqualTo(Instant.parse((String) newest.get("firstAttemptAt")));
        assertThat(JsonPath.parse(http().get("/actuator/deadletters?limit=1").getBody())
            .read("$.deadLetters[*].id", List.class)).containsExactly(newest.get("id"));

        String id = (String) newest.get("id");
        ResponseEntity<String> found = http().get("/actuator/deadletters/" + id);
        assertThat(found.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(JsonPath.parse(found.getBody()).read("$.id", String.class)).isEqualTo(id);

        assertThat(http().delete("/actuator/deadletters/" + id).getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);
        assertThat(http().get("/actuator/deadletters/" + id).getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(http().delete("/actuator/deadletters/" + id).getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(JsonPath.parse(http().get("/actuator/deadletters").getBody()).read("$.deadLetters", List.class))
            .hasSize(1);
    }

    @Test
    void healthReportsEveryBreakerStateAndStaysUpWhenOneIsOpen() {
        this.registry.findCircuitBreaker("inventory").orElseThrow().transitionTo(CircuitBreakerState.FORCED_OPEN);

        ResponseEntity<String> response = http().get("/actuator/health");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        DocumentContext json = JsonPath.parse(response.getBody());
        assertThat(json.read("$.status", String.class)).isEqualTo("UP");
        assertThat(json.read("$.components.circuitBreakers.status", String.class)).isEqualTo("UP");
        assertThat(json.read("$.components.circuitBreakers.details.inventory", Map.class))
            .containsEntry("state", "FORCED_OPEN")
            .containsEntry("failureRate", -1.0);
        assertThat(json.read("$.components.circuitBreakers.details['payment-gateway'].state", String.class))
            .isEqualTo("CLOSED");
    }

    private Http http() {
        return new Http(this.port);
    }

}
