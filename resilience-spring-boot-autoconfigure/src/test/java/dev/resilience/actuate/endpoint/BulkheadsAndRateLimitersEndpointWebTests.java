package dev.resilience.actuate.endpoint;

import java.util.Map;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.resilience.annotation.Bulkhead;
import dev.resilience.annotation.RateLimited;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /actuator/bulkheads} and {@code /actuator/ratelimiters} over HTTP: each instance
 * with its settings and live figures, numbers as numbers, and no write operation.
 */
@SpringBootTest(classes = BulkheadsAndRateLimitersEndpointWebTests.TestApplication.class,
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.endpoints.web.exposure.include=bulkheads,ratelimiters",
                "management.endpoint.bulkheads.access=unrestricted",
                "management.endpoint.ratelimiters.access=unrestricted",
                "resilience.bulkhead.instances.catalog.type=adaptive",
                "resilience.bulkhead.instances.catalog.max-concurrent-calls=10",
                "resilience.bulkhead.instances.catalog.min-limit=2",
                "resilience.bulkhead.instances.catalog.max-limit=40",
                "resilience.bulkhead.instances.catalog.algorithm=aimd" })
@DirtiesContext
class BulkheadsAndRateLimitersEndpointWebTests {

    @LocalServerPort
    private int port;

    @Autowired
    private Inventory inventory;

    @Test
    void bulkheadsReportTheirSettingsAndLiveFigures() {
        this.inventory.reserve("A-1");
        this.inventory.reserve("A-2");

        ResponseEntity<String> response = http().get("/actuator/bulkheads");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        DocumentContext json = JsonPath.parse(response.getBody());
        assertThat(json.read("$.bulkheads.inventory", Map.class)).containsExactlyInAnyOrderEntriesOf(
                Map.ofEntries(Map.entry("type", "fixed"), Map.entry("maxConcurrentCalls", 8),
                        Map.entry("maxWait", "100ms"), Map.entry("minLimit", 1), Map.entry("maxLimit", 200),
                        Map.entry("algorithm", "gradient"), Map.entry("limit", 8), Map.entry("concurrentCalls", 0),
                        Map.entry("waitingCalls", 0), Map.entry("permittedCalls", 2), Map.entry("rejectedCalls", 0)));
        assertThat(json.read("$.bulkheads.catalog", Map.class)).containsExactlyInAnyOrderEntriesOf(
                Map.ofEntries(Map.entry("type", "adaptive"), Map.entry("maxConcurrentCalls", 10),
                        Map.entry("maxWait", "0s"), Map.entry("minLimit", 2), Map.entry("maxLimit", 40),
                        Map.entry("algorithm", "aimd"), Map.entry("limit", 10), Map.entry("concurrentCalls", 0),
                        Map.entry("waitingCalls", 0), Map.entry("permittedCalls", 0), Map.entry("rejectedCalls", 0)));
    }

    @Test
    void rateLimitersReportTheirSettingsAndLiveFigures() {
        this.inventory.count("B-1");
        this.inventory.count("B-2");
        this.inventory.count("B-3");

        ResponseEntity<String> response = http().get("/actuator/ratelimiters");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        DocumentContext json = JsonPath.parse(response.getBody());
        assertThat(json.read("$.rateLimiters.stocktake", Map.class))
            .containsExactlyInAnyOrderEntriesOf(Map.of("limit", 5, "period", "1s", "timeout", "0s", "store", "memory",
                    "availablePermits", 2, "permittedCalls", 3, "rejectedCalls", 0, "storeErrors", 0));
    }

    @Test
    void endpointsAreReadOnly() {
        assertThat(http().post("/actuator/bulkheads/inventory", "{}").getStatusCode().is2xxSuccessful()).isFalse();
        assertThat(http().post("/actuator/ratelimiters", "{}").getStatusCode().is2xxSuccessful()).isFalse();
    }

    private Http http() {
        return new Http(this.port);
    }

    static class Inventory {

        @Bulkhead(name = "inventory", maxConcurrentCalls = 8, maxWait = "100ms")
        public String reserve(String sku) {
            return "reserved " + sku;
        }

        @RateLimited(name = "stocktake", limit = 5, period = "1s")
        public String count(String sku) {
            return "counted " + sku;
        }

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        VirtualTimeSource resilienceTimeSource() {
            return new VirtualTimeSource();
        }

        @Bean
        Inventory inventory() {
            return new Inventory();
        }

    }

}
