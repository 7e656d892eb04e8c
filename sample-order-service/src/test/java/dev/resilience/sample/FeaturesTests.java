package dev.resilience.sample;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Feature shunting: {@code /features} greys out ETH checkout while the price oracle's
 * breaker rejects calls, and offers it again once the breaker would let a call through
 * and after the oracle's recovery has closed it.
 */
@SampleApplicationTests
class FeaturesTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    private int port;

    private SampleClient client;

    @BeforeEach
    void healthyOracle() {
        this.client = new SampleClient(this.port);
        this.client.reset();
    }

    @AfterEach
    void restore() {
        this.client.reset();
    }

    @Test
    void ethCheckoutIsGreyedOutWhileTheOracleBreakerIsOpenAndOfferedAgainAfterRecovery() {
        assertThat(features()).isEqualTo(ethCheckout(true, "CLOSED"));

        this.client.faults("oracle", 0, 0, true);
        int pricesUntilOpen = 0;
        while (!this.client.breakerState("price-oracle").equals("OPEN")) {
            assertThat(pricesUntilOpen).as("price requests before the breaker opens").isLessThan(10);
            this.client.get("/prices/eth");
            pricesUntilOpen++;
        }
        assertThat(features()).isEqualTo(ethCheckout(false, "OPEN"));

        this.client.faults("oracle", 0, 0, false);
        await().atMost(Duration.ofSeconds(5))
            .pollInterval(Duration.ofMillis(100))
            .untilAsserted(() -> assertThat(features()).isEqualTo(ethCheckout(true, "OPEN")));
        assertThat(this.client.breakerState("price-oracle")).as("asking /features moves no breaker").isEqualTo("OPEN");

        assertThat(this.client.get("/prices/eth").get("stale").asBoolean()).isFalse();
        assertThat(features()).isEqualTo(ethCheckout(true, "CLOSED"));
    }

    private JsonNode features() {
        return this.client.get("/features");
    }

    private static JsonNode ethCheckout(boolean available, String breakerState) {
        return JSON.readTree("""
                {"features": {"eth-checkout": {"available": %s, "breaker": "price-oracle", "breakerState": "%s"}}}
                """.formatted(available, breakerState));
    }

}
