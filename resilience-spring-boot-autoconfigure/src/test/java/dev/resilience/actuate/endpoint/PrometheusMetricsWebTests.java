package dev.resilience.actuate.endpoint;

import java.util.Arrays;
import java.util.List;

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

/**
 * Scrapes {@code /actuator/prometheus} before and after known traffic: every meter exists
 * from the start at zero, and counts exactly what the calls did.
 */
@SpringBootTest(classes = ObservabilityTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.endpoints.web.exposure.include=prometheus",
                "resilience.retry.instances.payment.max-attempts=4",
                "resilience.retry.instances.quote.max-attempts=2" })
@DirtiesContext
class PrometheusMetricsWebTests {

    @LocalServerPort
    private int port;

    @Autowired
    private Payments payments;

    @Test
    void everyMeterExistsBeforeTheFirstCallAndCountsTheCallsAfterwards() {
        String before = scrape();
        assertThat(sample(before, "resilience_calls_seconds_count", "name=\"payment\"", "status=\"success\"",
                "fallback=\"false\""))
            .isZero();
        assertThat(sample(before, "resilience_calls_seconds_count", "name=\"payment\"", "status=\"rejected\"",
                "fallback=\"false\""))
            .isZero();
        assertThat(sample(before, "resilience_calls_seconds_count", "name=\"quote\"", "status=\"success\"",
                "fallback=\"true\""))
            .isZero();
        assertThat(sample(before, "resilience_retries_total", "name=\"payment\"")).isZero();
        assertThat(sample(before, "resilience_retry_budget_refused_total", "name=\"payment\"")).isZero();
        assertThat(sample(before, "resilience_deadletters_total", "name=\"payment\"")).isZero();
        assertThat(sample(before, "resilience_fallbacks_total", "name=\"payment\"", "fallback=\"payLater\"",
                "outcome=\"success\""))
            .isZero();
        assertThat(sample(before, "resilience_fallbacks_total", "name=\"quote\"", "fallback=\"cachedQuote\"",
                "outcome=\"failure\""))
            .isZero();
        assertThat(sample(before, "resilience_circuitbreaker_state", "name=\"payment-gateway\"", "state=\"closed\""))
            .isEqualTo(1);
        assertThat(sample(before, "resilience_circuitbreaker_state", "name=\"payment-gateway\"", "state=\"open\""))
            .isZero();
        assertThat(sample(before, "resilience_circuitbreaker_failure_rate", "name=\"payment-gateway\"")).isEqualTo(-1);
        assertThat(sample(before, "resilience_circuitbreaker_calls_total", "name=\"payment-gateway\"",
                "kind=\"not_permitted\""))
            .isZero();

        assertThat(this.payments.pay("order-1")).isEqualTo("paid order-1");
        assertThat(this.payments.quote("EUR")).isEqualTo("42 EUR");

        String after = scrape();
        assertThat(sample(after, "resilience_calls_seconds_count", "name=\"payment\"", "status=\"success\"",
                "fallback=\"false\""))
            .isEqualTo(1);
        assertThat(sample(after, "resilience_calls_seconds_count", "name=\"payment\"", "status=\"error\"",
                "fallback=\"false\""))
            .isZero();
        assertThat(sample(after, "resilience_retries_total", "name=\"payment\"")).isEqualTo(1);
        assertThat(sample(after, "resilience_fallbacks_total", "name=\"payment\"", "fallback=\"payLater\"",
                "outcome=\"success\""))
            .isZero();
        assertThat(
                sample(after, "resilience_circuitbreaker_calls_total", "name=\"payment-gateway\"", "kind=\"failed\""))
            .isEqualTo(1);
        assertThat(sample(after, "resilience_circuitbreaker_calls_total", "name=\"payment-gateway\"",
                "kind=\"successful\""))
            .isEqualTo(1);
        assertThat(sample(after, "resilience_calls_seconds_count", "name=\"quote\"", "status=\"success\"",
                "fallback=\"true\""))
            .isEqualTo(1);
        assertThat(sample(after, "resilience_retries_total", "name=\"quote\"")).isEqualTo(1);
        assertThat(sample(after, "resilience_fallbacks_total", "name=\"quote\"", "fallback=\"cachedQuote\"",
                "outcome=\"success\""))
            .isEqualTo(1);
        assertThat(after).doesNotContain("resilience_calls_retry")
            .doesNotContain("resilience_calls_fallback")
            .doesNotContain("resilience_calls_active");
        assertThat(after.lines().filter((line) -> line.startsWith("resilience_calls_seconds"))).isNotEmpty()
            .noneMatch((line) -> line.contains("error=\""));
    }

    private String scrape() {
        ResponseEntity<String> response = new Http(this.port).get("/actuator/prometheus");
        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        return response.getBody();
    }

    private static double sample(String scrape, String metric, String... labels) {
        List<String> matches = scrape.lines()
            .filter((line) -> line.startsWith(metric + "{"))
            .filter((line) -> Arrays.stream(labels).allMatch(line::contains))
            .toList();
        assertThat(matches).as("samples of %s with %s", metric, Arrays.toString(labels)).hasSize(1);
        String line = matches.get(0);
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

}
