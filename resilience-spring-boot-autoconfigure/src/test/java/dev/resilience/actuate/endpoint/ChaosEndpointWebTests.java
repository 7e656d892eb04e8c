package dev.resilience.actuate.endpoint;

import java.time.Duration;
import java.util.Map;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.resilience.chaos.ChaosInstances;
import dev.resilience.chaos.ChaosSettings;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /actuator/chaos} over HTTP, its write operation opted in.
 */
@SpringBootTest(classes = ObservabilityTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.endpoints.web.exposure.include=chaos",
                "management.endpoint.chaos.access=unrestricted", "management.health.redis.enabled=false",
                "resilience.chaos.enabled=true", "resilience.chaos.instances.quote.failure-rate=0.25",
                "resilience.chaos.instances.quote.latency=150ms",
                "resilience.chaos.instances.shipping.exception=java.lang.IllegalStateException" })
@DirtiesContext
class ChaosEndpointWebTests {

    @LocalServerPort
    private int port;

    @Autowired
    private ChaosInstances chaos;

    @Test
    void getListsEveryProtectedOperationWithItsSettings() {
        ResponseEntity<String> response = http().get("/actuator/chaos");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        DocumentContext json = JsonPath.parse(response.getBody());
        assertThat(json.read("$.instances", Map.class).keySet()).contains("payment", "quote", "shipping");
        assertThat(json.read("$.instances.quote.failureRate", Double.class)).isEqualTo(0.25);
        assertThat(json.read("$.instances.quote.latency", String.class)).isEqualTo("150ms");
        assertThat(json.read("$.instances.quote.exception", String.class))
            .isEqualTo("dev.resilience.chaos.ChaosException");
        assertThat(json.read("$.instances.shipping.exception", String.class))
            .isEqualTo("java.lang.IllegalStateException");
        assertThat(json.read("$.instances.quote.injected.failure", Long.class)).isZero();
        assertThat(JsonPath.parse(http().get("/actuator/chaos/quote").getBody()).read("$.latency", String.class))
            .isEqualTo("150ms");
        assertThat(http().get("/actuator/chaos/no-such-operation").getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
    }

    @Test
    void postChangesOnlyTheGivenFields() {
        ResponseEntity<String> response = http().post("/actuator/chaos/payment", "{\"failureRate\": 0.5}");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(JsonPath.parse(response.getBody()).read("$.failureRate", Double.class)).isEqualTo(0.5);
        assertThat(JsonPath.parse(response.getBody()).read("$.latency", String.class)).isEqualTo("0s");

        response = http().post("/actuator/chaos/payment", "{\"latency\": \"200ms\"}");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        ChaosSettings settings = this.chaos.find("payment").orElseThrow().settings();
        assertThat(settings.failureRate()).isEqualTo(0.5);
        assertThat(settings.latency()).hasMillis(200);
        this.chaos.find("payment").orElseThrow().update(0.0, Duration.ZERO);
    }

    @Test
    void postOfAnOutOfRangeValueIsABadRequestAndChangesNothing() {
        ResponseEntity<String> response = http().post("/actuator/chaos/quote",
                "{\"failureRate\": 1.5, \"latency\": \"10ms\"}");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(response.getBody()).contains("failureRate must be between 0 and 1");
        assertThat(this.chaos.find("quote").orElseThrow().settings().latency()).hasMillis(150);
        assertThat(http().post("/actuator/chaos/quote", "{\"latency\": \"soon\"}").getStatusCode())
            .isEqualTo(HttpStatus.BAD_REQUEST);
    }

    @Test
    void postForANameThatIsNoProtectedOperationIsNotFoundAndAddsNothing() {
        ResponseEntity<String> response = http().post("/actuator/chaos/no-such-operation", "{\"failureRate\": 1}");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(this.chaos.find("no-such-operation")).isEmpty();
    }

    private Http http() {
        return new Http(this.port);
    }

}
