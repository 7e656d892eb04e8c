package dev.resilience.sample;

import dev.resilience.sample.price.EthPrice;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The oracle down before any price was read (an application of its own, whose last good
 * store is empty): {@code /prices/eth} serves the static default price, then the oracle's
 * price once it answers again.
 */
@SampleApplicationTests
@TestPropertySource(properties = { "sample.price.eth-default-usd=2500.00",
        "spring.datasource.url=jdbc:h2:mem:eth-default-price;DB_CLOSE_DELAY=-1" })
class EthDefaultPriceTests {

    @LocalServerPort
    private int port;

    private SampleClient client;

    private RestClient http;

    @BeforeEach
    void oracleDown() {
        this.client = new SampleClient(this.port);
        this.client.reset();
        this.client.faults("oracle", 0, 0, true);
        this.http = RestClient.create("http://localhost:" + this.port);
    }

    @AfterEach
    void restore() {
        this.client.reset();
    }

    @Test
    void withoutALastGoodPriceTheStaticDefaultIsServed() {
        EthPrice price = price();

        assertThat(price.usd()).isEqualByComparingTo("2500.00");
        assertThat(price.source()).isEqualTo("default");
        assertThat(price.stale()).isTrue();
        assertThat(price.fetchedAt()).isNull();
        assertThat(price.staleSince()).isNull();

        this.client.reset();
        assertThat(price().source()).isEqualTo("oracle");
    }

    private EthPrice price() {
        return this.http.get().uri("/prices/eth").retrieve().body(EthPrice.class);
    }

}
