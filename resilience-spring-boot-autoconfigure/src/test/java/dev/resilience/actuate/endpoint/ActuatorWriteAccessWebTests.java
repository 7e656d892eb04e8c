package dev.resilience.actuate.endpoint;

import java.util.List;

import com.jayway.jsonpath.JsonPath;
import dev.resilience.actuate.endpoint.ObservabilityTestApplication.Payments;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The write operations of {@code circuitbreakers} and {@code deadletters} exposed over
 * HTTP without {@code management.endpoint.<id>.access=unrestricted}: read-only, so a
 * write is refused and changes nothing, while the reads work.
 */
@SpringBootTest(classes = ObservabilityTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.endpoints.web.exposure.include=circuitbreakers,deadletters",
                "management.health.redis.enabled=false", "resilience.circuit-breaker.instances.locked.minimum-calls=4",
                "resilience.retry.instances.shipping.max-attempts=2" })
@DirtiesContext
class ActuatorWriteAccessWebTests {

    @LocalServerPort
    private int port;

    @Autowired
    private ResilienceRegistry registry;

    @Autowired
    private Payments payments;

    @Autowired
    private DeadLetterStore store;

    @Test
    void forcingABreakerOpenIsRefusedWithoutTheOptInAndLeavesItsState() {
        Http http = new Http(this.port);

        assertThat(http.post("/actuator/circuitbreakers/locked", "{\"state\": \"FORCED_OPEN\"}").getStatusCode())
            .isEqualTo(HttpStatus.METHOD_NOT_ALLOWED);
        assertThat(this.registry.findCircuitBreaker("locked").orElseThrow().state())
            .isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(JsonPath.parse(http.get("/actuator/circuitbreakers/locked").getBody()).read("$.state", String.class))
            .isEqualTo("CLOSED");
    }

    @Test
    void deletingADeadLetterIsRefusedWithoutTheOptInAndKeepsIt() {
        assertThatIllegalStateException().isThrownBy(() -> this.payments.ship("order-3"));
        String id = this.store.list(1).get(0).id();
        Http http = new Http(this.port);

        assertThat(http.delete("/actuator/deadletters/" + id).getStatusCode()).isEqualTo(HttpStatus.METHOD_NOT_ALLOWED);
        assertThat(this.store.find(id)).isPresent();
        assertThat(JsonPath.parse(http.get("/actuator/deadletters").getBody()).read("$.deadLetters[*].id", List.class))
            .contains(id);
    }

    @Test
    void redrivingADeadLetterIsRefusedWithoutTheOptInAndKeepsIt() {
        assertThatIllegalStateException().isThrownBy(() -> this.payments.ship("order-4"));
        String id = this.store.list(1).get(0).id();
        Http http = new Http(this.port);

        assertThat(http.post("/actuator/deadletters/" + id).getStatusCode()).isEqualTo(HttpStatus.METHOD_NOT_ALLOWED);
        assertThat(this.store.find(id)).isPresent();
    }

}
