package dev.resilience.actuate.endpoint;

import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.resilience.actuate.endpoint.ObservabilityTestApplication.Payments;
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
 * {@code /actuator/retries} over HTTP, after calls through the annotated test bean.
 */
@SpringBootTest(classes = ObservabilityTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.endpoints.web.exposure.include=retries",
                "resilience.retry.instances.payment.max-attempts=4", "resilience.retry.instances.quote.max-attempts=2",
                "resilience.retry.instances.quote.abort-on=java.lang.IllegalArgumentException",
                "resilience.retry.instances.quote.attempt-timeout=1500ms",
                "resilience.retry.instances.quote.max-duration=1m",
                "resilience.retry.instances.quote.budget.enabled=false" })
@DirtiesContext
class RetriesEndpointWebTests {

    @LocalServerPort
    private int port;

    @Autowired
    private Payments payments;

    @Test
    void reportsEachRetryInstanceWithItsSettingsAndCounts() {
        this.payments.pay("order-1");
        this.payments.quote("EUR");
        assertThatIllegalStateException().isThrownBy(() -> this.payments.ship("order-2"));

        ResponseEntity<String> response = new Http(this.port).get("/actuator/retries");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        DocumentContext json = JsonPath.parse(response.getBody());
        assertThat(json.read("$.retries", Map.class)).containsOnlyKeys("payment", "quote", "shipping");
        Map<String, Object> payment = json.read("$.retries.payment");
        assertThat(payment).containsEntry("maxAttempts", 4)
            .containsEntry("delay", "200ms")
            .containsEntry("multiplier", 2.0)
            .containsEntry("maxDelay", "5s")
            .containsEntry("jitter", "full")
            .containsEntry("retryOn", List.of())
            .containsEntry("abortOn", List.of())
            .containsEntry("attemptTimeout", null)
            .containsEntry("maxDuration", null)
            .containsEntry("budget", Map.of("ratio", 0.1, "minRetriesPerSecond", 10, "window", "10s"))
            .containsEntry("calls", Map.of("success", 1, "failure", 0, "error", 0, "timeout", 0, "rejected", 0))
            .containsEntry("retries", 1)
            .containsEntry("fallbacks", 0)
            .containsEntry("budgetRefused", 0);
        Map<String, Object> quote = json.read("$.retries.quote");
        assertThat(quote).containsEntry("maxAttempts", 2)
            .containsEntry("abortOn", List.of("java.lang.IllegalArgumentException"))
            .containsEntry("attemptTimeout", "1500ms")
            .containsEntry("maxDuration", "1m")
            .containsEntry("budget", null)
            .containsEntry("calls", Map.of("success", 1, "failure", 0, "error", 0, "timeout", 0, "rejected", 0))
            .containsEntry("retries", 1)
            .containsEntry("fallbacks", 1);
        assertThat(json.read("$.retries.shipping.calls.error", Integer.class)).isEqualTo(1);
        assertThat(json.read("$.retries.shipping.retries", Integer.class)).isEqualTo(2);
    }

}
