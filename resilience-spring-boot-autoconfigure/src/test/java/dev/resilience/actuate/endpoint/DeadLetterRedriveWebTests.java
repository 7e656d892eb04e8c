package dev.resilience.actuate.endpoint;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.resilience.actuate.endpoint.RedriveTestApplication.Dispatches;
import dev.resilience.actuate.endpoint.RedriveTestApplication.Parcel;
import dev.resilience.actuate.endpoint.RedriveTestApplication.Warehouse;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code POST /actuator/deadletters/{id}} over HTTP, opted in with
 * {@code management.endpoint.deadletters.access=unrestricted}.
 */
@SpringBootTest(classes = RedriveTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.endpoints.web.exposure.include=deadletters",
                "management.endpoint.deadletters.access=unrestricted", "resilience.dead-letter.show-values=always",
                "management.health.redis.enabled=false", "resilience.retry.instances.dispatch.max-attempts=2",
                "resilience.dead-letter.max-argument-size=100B" })
@DirtiesContext
class DeadLetterRedriveWebTests {

    @LocalServerPort
    private int port;

    @Autowired
    private Warehouse warehouse;

    @Autowired
    private Dispatches dispatches;

    @Autowired
    private DeadLetterStore store;

    @BeforeEach
    void clear() {
        this.store.list(100).forEach((letter) -> this.store.delete(letter.id()));
        this.dispatches.down.set(false);
        this.dispatches.received.clear();
    }

    @Test
    void redriveOfARecoveredCallAnswers200AndDeletesTheLetter() {
        Parcel parcel = new Parcel("p-1", List.of("lamp", "desk"), 2.5);
        String id = deadLetterOf(parcel, 3);

        ResponseEntity<String> response = http().post("/actuator/deadletters/" + id);

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(body(response)).isEqualTo(json(id, "SUCCESS", "SUCCESS", 1, null, null, "DELETED"));
        assertThat(this.dispatches.received).containsExactly(List.of(parcel, 3));
        assertThat(http().get("/actuator/deadletters/" + id).getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
    }

    @Test
    void redriveThatFailsAgainAnswers502AndKeepsTheLetter() {
        String id = deadLetterOf(new Parcel("p-2", List.of(), 1.0), 1);
        this.dispatches.down.set(true);

        ResponseEntity<String> response = http().post("/actuator/deadletters/" + id);

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_GATEWAY);
        assertThat(body(response))
            .isEqualTo(json(id, "FAILURE", "ERROR", 2, IOException.class.getName(), "warehouse down", "KEPT"));
        assertThat(this.dispatches.received).hasSize(2);
        assertThat(this.store.list(10)).extracting(DeadLetter::id).containsExactly(id);
    }

    @Test
    void redriveOfATruncatedArgumentAnswers409WithTheReasonAndKeepsTheLetter() {
        String id = deadLetterOf(new Parcel("p-3", List.of("x".repeat(200)), 1.0), 1);

        ResponseEntity<String> response = http().post("/actuator/deadletters/" + id);

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(body(response)).isEqualTo(json(id, "UNREADABLE", null, null, null,
                "Dead letter of Warehouse#dispatch cannot be re-driven: argument 0 was truncated when stored "
                        + "(resilience.dead-letter.max-argument-size); its whole value is not known",
                "KEPT"));
        assertThat(this.dispatches.received).isEmpty();
        assertThat(http().get("/actuator/deadletters/" + id).getStatusCode()).isEqualTo(HttpStatus.OK);
    }

    @Test
    void redriveOfAnUnknownIdAnswers404() {
        ResponseEntity<String> response = http().post("/actuator/deadletters/unknown");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(body(response))
            .isEqualTo(json("unknown", "NOT_FOUND", null, null, null, "No dead letter has the id unknown", "NONE"));
    }

    private String deadLetterOf(Parcel parcel, int copies) {
        this.dispatches.down.set(true);
        assertThatExceptionOfType(IOException.class).isThrownBy(() -> this.warehouse.dispatch(parcel, copies));
        this.dispatches.down.set(false);
        this.dispatches.received.clear();
        List<DeadLetter> letters = this.store.list(10);
        assertThat(letters).hasSize(1);
        return letters.get(0).id();
    }

    private static Map<String, Object> body(ResponseEntity<String> response) {
        return JsonPath.parse(response.getBody()).read("$");
    }

    private static Map<String, @Nullable Object> json(String id, String outcome, @Nullable String status,
            @Nullable Integer attempts, @Nullable String errorClass, @Nullable String error, String deadLetter) {
        Map<String, @Nullable Object> json = new LinkedHashMap<>();
        json.put("id", id);
        json.put("outcome", outcome);
        json.put("status", status);
        json.put("attempts", attempts);
        json.put("errorClass", errorClass);
        json.put("error", error);
        json.put("deadLetter", deadLetter);
        return json;
    }

    private Http http() {
        return new Http(this.port);
    }

}
