package dev.resilience.sample;

import dev.resilience.sample.price.EthPrice;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The oracle down: {@code /prices/eth} serves the last good price that
 * {@code @Fallback(lastGood)} kept, marked stale since it was stored, also once the
 * breaker has opened.
 */
@SampleApplicationTests
class EthPriceTests {

    @LocalServerPort
    private int port;

    private SampleClient client;

    private RestClient http;

    @BeforeEach
    void healthyOracle() {
        this.client = new SampleClient(this.port);
        this.client.reset();
        this.http = RestClient.create("http://localhost:" + this.port);
    }

    @AfterEach
    void restore() {
        this.client.reset();
    }

    @Test
    void whenTheOracleIsDownTheLastGoodPriceIsServedMarkedStale() {
        EthPrice fresh = price();
        assertThat(fresh.stale()).isFalse();
        assertThat(fresh.staleSince()).isNull();
        assertThat(fresh.source()).isEqualTo("oracle");

        this.client.faults("oracle", 0, 0, true);
        for (int i = 0; i < 6; i++) {
            EthPrice stale = price();
            assertThat(stale.stale()).isTrue();
            assertThat(stale.source()).isEqualTo("last-good");
            assertThat(stale.usd()).isEqualByComparingTo(fresh.usd());
            assertThat(stale.fetchedAt()).isEqualTo(fresh.fetchedAt());
            assertThat(stale.staleSince()).isNotNull().isAfterOrEqualTo(fresh.fetchedAt());
        }
        assertThat(this.client.breakerState("price-oracle")).isEqualTo("OPEN");
    }

    private EthPrice price() {
        return this.http.get().uri("/prices/eth").retrieve().body(EthPrice.class);
    }

}
