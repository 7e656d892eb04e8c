package dev.resilience.actuate.endpoint;

import com.jayway.jsonpath.JsonPath;
import dev.resilience.chaos.ChaosInstances;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /actuator/chaos} exposed without
 * {@code management.endpoint.chaos.access=unrestricted}: read-only, so a change is
 * refused and changes nothing, while the list works.
 */
@SpringBootTest(classes = ObservabilityTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.endpoints.web.exposure.include=chaos", "management.health.redis.enabled=false",
                "resilience.chaos.enabled=true" })
@DirtiesContext
class ChaosEndpointReadOnlyWebTests {

    @LocalServerPort
    private int port;

    @Autowired
    private ChaosInstances chaos;

    @Test
    void postIsRefusedWithoutTheOptInAndChangesNothing() {
        Http http = new Http(this.port);

        assertThat(http.post("/actuator/chaos/payment", "{\"failureRate\": 1.0}").getStatusCode())
            .isEqualTo(HttpStatus.METHOD_NOT_ALLOWED);
        assertThat(this.chaos.find("payment").orElseThrow().settings().failureRate()).isZero();
        assertThat(JsonPath.parse(http.get("/actuator/chaos").getBody())
            .read("$.instances.payment.failureRate", Double.class)).isZero();
        assertThat(JsonPath.parse(http.get("/actuator/chaos/payment").getBody()).read("$.failureRate", Double.class))
            .isZero();
    }

}
