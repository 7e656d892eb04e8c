package dev.resilience.actuate;

import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.resilience.actuate.ObservabilityTestApplication.Payments;
import dev.resilience.core.deadletter.DeadLetterStore;
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
                "resilience.dead-letter.store=redis", "resilience.retry.instances.shipping.max-attempts=2" })
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
        assertThat(deadLetters).singleElement().satisfies((deadLetter) -> assertThat(deadLetter)
            .containsEntry("name", "shipping")
            .containsEntry("method", "Payments#ship")
            .containsEntry("errorMessage", "carrier down for order-7")
            .containsEntry("attempts", 2));
        String id = (String) deadLetters.get(0).get("id");
        assertThat(redis.command("HEXISTS {resilience:deadletters}:entries " + id)).isEqualTo(":1");
        ResponseEntity<String> found = new Http(this.port).get("/actuator/deadletters/" + id);
        assertThat(found.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(JsonPath.parse(found.getBody()).read("$.id", String.class)).isEqualTo(id);
    }
}
