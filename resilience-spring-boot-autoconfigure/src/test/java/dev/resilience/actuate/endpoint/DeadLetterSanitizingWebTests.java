package dev.resilience.actuate.endpoint;

import java.time.Duration;
import java.util.List;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.resilience.actuate.endpoint.SecuredDeadLettersTestApplication.Card;
import dev.resilience.actuate.endpoint.SecuredDeadLettersTestApplication.Checkout;
import dev.resilience.actuate.endpoint.SecuredDeadLettersTestApplication.Customer;
import dev.resilience.actuate.endpoint.SecuredDeadLettersTestApplication.Payment;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@code /actuator/deadletters} over HTTP with Spring Security and the default
 * {@code show-values=when-authorized}: arguments shown sanitized, kept whole in the
 * store, bounded in size and expiring.
 */
@SpringBootTest(classes = SecuredDeadLettersTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.endpoints.web.exposure.include=deadletters", "management.health.redis.enabled=false",
                "resilience.dead-letter.roles=OPERATOR", "resilience.retry.instances.checkout.max-attempts=2" })
@DirtiesContext
class DeadLetterSanitizingWebTests {

    private static final String MASK = "******";

    @LocalServerPort
    private int port;

    @Autowired
    private Checkout checkout;

    @Autowired
    private DeadLetterStore store;

    @Autowired
    private VirtualTimeSource clock;

    @Test
    void operatorSeesNonSensitiveValuesWithSensitiveKeysMaskedAtAnyDepth() {
        String id = payWithSecrets();

        DocumentContext listed = argument(get("/actuator/deadletters", "operator", "operator-pw"), id);
        DocumentContext found = JsonPath
            .parse(JsonPath.parse(get("/actuator/deadletters/" + id, "operator", "operator-pw").getBody())
                .read("$.arguments[0]", String.class));

        for (DocumentContext argument : List.of(listed, found)) {
            assertThat(argument.read("$.orderId", String.class)).isEqualTo("o-1");
            assertThat(argument.read("$.password", String.class)).isEqualTo(MASK);
            assertThat(argument.read("$.card", String.class)).isEqualTo(MASK);
            assertThat(argument.read("$.customer.name", String.class)).isEqualTo("Ann");
            assertThat(argument.read("$.customer.apiToken", String.class)).isEqualTo(MASK);
            assertThat(argument.jsonString()).doesNotContain("hunter2", "4111111111111111", "tok-9");
        }
        assertThat(JsonPath.parse(get("/actuator/deadletters/" + id, "operator", "operator-pw").getBody())
            .read("$.errorMessage", String.class)).isEqualTo("gateway down");
    }

    @Test
    void unauthenticatedRequestSeesEveryValueMasked() {
        String id = payWithSecrets();

        ResponseEntity<String> list = get("/actuator/deadletters", null, null);
        ResponseEntity<String> found = get("/actuator/deadletters/" + id, null, null);

        assertThat(list.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(
                JsonPath.parse(list.getBody()).read("$.deadLetters[?(@.id == '" + id + "')].arguments[0]", List.class))
            .containsExactly(MASK);
        assertThat(JsonPath.parse(found.getBody()).read("$.arguments", List.class)).containsExactly(MASK);
        assertThat(JsonPath.parse(found.getBody()).read("$.errorMessage", String.class)).isEqualTo(MASK);
        assertThat(list.getBody() + found.getBody()).doesNotContain("o-1", "hunter2", "4111111111111111", "Ann");
    }

    @Test
    void authenticatedUserWithoutTheRoleSeesEveryValueMasked() {
        String id = payWithSecrets();

        ResponseEntity<String> found = get("/actuator/deadletters/" + id, "viewer", "viewer-pw");

        assertThat(JsonPath.parse(found.getBody()).read("$.arguments", List.class)).containsExactly(MASK);
    }

    @Test
    void storeKeepsTheArgumentsWholeForARedrive() {
        String id = payWithSecrets();

        DeadLetter stored = this.store.find(id).orElseThrow();

        DocumentContext argument = JsonPath.parse(stored.arguments().get(0));
        assertThat(argument.read("$.password", String.class)).isEqualTo("hunter2");
        assertThat(argument.read("$.card.number", String.class)).isEqualTo("4111111111111111");
        assertThat(argument.read("$.customer.apiToken", String.class)).isEqualTo("tok-9");
    }

    @Test
    void argumentLongerThanMaxArgumentSizeIsTruncatedWithAMarker() {
        String text = "a".repeat(20_000);

        String id = deadLetterId(() -> this.checkout.remark(text));

        String stored = this.store.find(id).orElseThrow().arguments().get(0);
        assertThat(stored).isEqualTo("\"" + "a".repeat(16 * 1024 - 1) + "...[truncated 3618 bytes]");
        String shown = JsonPath.parse(get("/actuator/deadletters/" + id, "operator", "operator-pw").getBody())
            .read("$.arguments[0]", String.class);
        assertThat(shown).isEqualTo(stored);
    }

    @Test
    void deadLetterOlderThanTheTtlIsGoneFromListAndGet() {
        String id = payWithSecrets();

        this.clock.advance(Duration.ofDays(7).plusSeconds(1));

        assertThat(get("/actuator/deadletters/" + id, "operator", "operator-pw").getStatusCode())
            .isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(JsonPath.parse(get("/actuator/deadletters", "operator", "operator-pw").getBody())
            .read("$.deadLetters[*].id", List.class)).doesNotContain(id);
        assertThat(this.store.find(id)).isEmpty();
    }

    private String payWithSecrets() {
        return deadLetterId(() -> this.checkout
            .pay(new Payment("o-1", "hunter2", new Card("4111111111111111", "Ann"), new Customer("Ann", "tok-9"))));
    }

    private String deadLetterId(Runnable call) {
        assertThatIllegalStateException().isThrownBy(call::run);
        return this.store.list(1).get(0).id();
    }

    private static DocumentContext argument(ResponseEntity<String> list, String id) {
        List<String> arguments = JsonPath.parse(list.getBody())
            .read("$.deadLetters[?(@.id == '" + id + "')].arguments[0]");
        assertThat(arguments).hasSize(1);
        return JsonPath.parse(arguments.get(0));
    }

    private ResponseEntity<String> get(String path, @Nullable String user, @Nullable String password) {
        return RestClient.create("http://localhost:" + this.port).get().uri(path).headers((headers) -> {
            if (user != null && password != null) {
                headers.setBasicAuth(user, password);
            }
        }).retrieve().onStatus((status) -> true, (request, response) -> {
        }).toEntity(String.class);
    }

}
