package dev.resilience.sample;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Card tokens stay inside the service: the order responses show only the token's last
 * four characters.
 */
@SampleApplicationTests
class CardTokenTests {

    private static final String TOKEN = "tok_visa_4242";

    @LocalServerPort
    private int port;

    private SampleClient client;

    @BeforeEach
    void healthyDownstreams() {
        this.client = new SampleClient(this.port);
        this.client.reset();
    }

    @Test
    void orderResponsesShowTheCardMaskedToItsLastFour() {
        JsonNode created = this.client.createOrderJson(TOKEN);
        long id = created.get("id").asLong();
        this.client.pay(id, "masked-" + id);
        JsonNode read = this.client.get("/orders/" + id);

        for (JsonNode order : new JsonNode[] { created, read }) {
            assertThat(order.path("card").asString()).isEqualTo("****4242");
            assertThat(order.has("cardToken")).isFalse();
            assertThat(order.toString()).doesNotContain(TOKEN);
        }
        assertThat(read.get("state").asString()).isEqualTo("PAID");
    }

}
