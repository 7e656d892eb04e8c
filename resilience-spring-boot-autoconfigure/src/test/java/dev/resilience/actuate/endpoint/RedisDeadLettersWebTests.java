package dev.resilience.actuate.endpoint;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.resilience.actuate.endpoint.ObservabilityTestApplication.Card;
import dev.resilience.actuate.endpoint.ObservabilityTestApplication.Payments;
import dev.resilience.actuate.endpoint.ObservabilityTestApplication.Refund;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.redis.RedisDeadLetterStore;
import dev.resilience.redis.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@code /actuator/deadletters} over HTTP when the dead letters are kept in Redis.
 */
@SpringBootTest(classes = ObservabilityTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.endpoints.web.exposure.include=deadletters", "management.health.redis.enabled=false",
                "resilience.dead-letter.store=redis", "resilience.retry.instances.shipping.max-attempts=2",
                "resilience.dead-letter.show-values=always", "resilience.dead-letter.ttl=1h" })
@DirtiesContext
class RedisDeadLettersWebTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @LocalServerPort
    private int port;

    @Autowired
    private Payments payments;

    @Autowired
    private DeadLetterStore store;

    @Autowired
    private VirtualTimeSource clock;

    @DynamicPropertySource
    static void redisProperties(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.host", () -> "127.0.0.1");
        registry.add("spring.data.redis.port", redis::port);
    }

    @Test
    void deadLettersKeptInRedisAreListedAndFoundById() {
        assertThat(this.store).isInstanceOf(RedisDeadLetterStore.class);
        assertThatIllegalStateException().isThrownBy(() -> this.payments.ship("order-7"));

        ResponseEntity<String> list = new Http(this.port).get("/actuator/deadletters");

        assertThat(list.getStatusCode()).isEqualTo(HttpStatus.OK);
        List<Map<String, Object>> deadLetters = JsonPath.parse(list.getBody()).read("$.deadLetters");
        assertThat(deadLetters).singleElement()
            .satisfies((deadLetter) -> assertThat(deadLetter).containsEntry("name", "shipping")
                .containsEntry("method", "Payments#ship")
                .containsEntry("errorMessage", "carrier down for order-7")
                .containsEntry("attempts", 2));
        String id = (String) deadLetters.get(0).get("id");
        assertThat(redis.command("HEXISTS {resilience:deadletters}:entries " + id)).isEqualTo(":1");
        ResponseEntity<String> found = new Http(this.port).get("/actuator/deadletters/" + id);
        assertThat(found.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(JsonPath.parse(found.getBody()).read("$.id", String.class)).isEqualTo(id);
    }

    @Test
    void redisKeepsTheArgumentsWholeWhileTheEndpointMasksSensitiveKeys() {
        assertThatIllegalStateException()
            .isThrownBy(() -> this.payments.refund(new Refund("order-9", "hunter2", new Card("4111111111111111"))));
        String id = this.store.list(1).get(0).id();

        String shown = JsonPath.parse(new Http(this.port).get("/actuator/deadletters/" + id).getBody())
            .read("$.arguments[0]", String.class);

        assertThat(JsonPath.parse(shown).read("$.orderId", String.class)).isEqualTo("order-9");
        assertThat(JsonPath.parse(shown).read("$.password", String.class)).isEqualTo("******");
        assertThat(shown).doesNotContain("hunter2", "4111111111111111");
        assertThat(
                redis.command("EVAL \"return string.find(redis.call('HGET', KEYS[1], ARGV[1]), ARGV[2], 1, true)\" 1 "
                        + "{resilience:deadletters}:entries " + id + " hunter2"))
            .startsWith(":");
        assertThat(JsonPath.parse(this.store.find(id).orElseThrow().arguments().get(0))
            .read("$.card.number", String.class)).isEqualTo("4111111111111111");
    }

    @Test
    void deadLetterOlderThanTheTtlIsGoneFromListAndGetAndFromTheIndexes() {
        assertThatIllegalStateException().isThrownBy(() -> this.payments.ship("order-old"));
        String id = this.store.list(1).get(0).id();

        this.clock.advance(Duration.ofHours(1).plusMillis(1));

        Http http = new Http(this.port);
        assertThat(http.get("/actuator/deadletters/" + id).getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(JsonPath.parse(http.get("/actuator/deadletters").getBody()).read("$.deadLetters[*].id", List.class))
            .doesNotContain(id);
        assertThatIllegalStateException().isThrownBy(() -> this.payments.ship("order-new"));
        assertThat(redis.command("HEXISTS {resilience:deadletters}:entries " + id)).isEqualTo(":0");
        assertThat(redis.command("ZSCORE {resilience:deadletters}:order " + id)).isEqualTo("$-1");
    }

}
