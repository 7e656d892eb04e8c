package dev.resilience.sample;

import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.aot.AotDetector;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application as {@code process-aot} left it in {@code target/classes}, started with
 * {@code -Dspring.aot.enabled=true} on the JVM (the failsafe plugin sets it; surefire
 * leaves this class out): its bean definitions come from the generated
 * {@code SampleOrderServiceApplication__ApplicationContextInitializer}, and it pays an
 * order once for one key, the second request replayed.
 */
class SampleOrderServiceApplicationAotTests {

    private static final String INITIALIZER = SampleOrderServiceApplication.class.getName()
            + "__ApplicationContextInitializer";

    @Test
    void startsFromTheGeneratedInitializerAndPaysAnOrderOnceForOneKey() throws ClassNotFoundException {
        assertThat(AotDetector.useGeneratedArtifacts()).as("spring.aot.enabled").isTrue();
        assertThat(Class.forName(INITIALIZER)).isNotNull();
        SpringApplication application = new SpringApplication(SampleOrderServiceApplication.class);
        // the initializer is looked up by the main class's name: the one main() would
        // give
        application.setMainApplicationClass(SampleOrderServiceApplication.class);
        try (ConfigurableApplicationContext context = application.run("--server.port=0",
                "--spring.jmx.enabled=false")) {
            RootBeanDefinition paymentService = (RootBeanDefinition) context.getBeanFactory()
                .getMergedBeanDefinition("paymentService");
            assertThat(paymentService.getInstanceSupplier()).as("instance supplier of the generated code").isNotNull();

            RestClient http = RestClient
                .create("http://localhost:" + ((WebServerApplicationContext) context).getWebServer().getPort());
            ResponseEntity<JsonNode> order = http.post()
                .uri("/orders")
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("customer", "c-1", "amountCents", 4200, "cardToken", "tok_visa"))
                .retrieve()
                .toEntity(JsonNode.class);
            assertThat(order.getStatusCode().value()).isEqualTo(201);
            long id = order.getBody().get("id").asLong();

            ResponseEntity<JsonNode> first = pay(http, id);
            ResponseEntity<JsonNode> second = pay(http, id);

            assertThat(first.getStatusCode().value()).isEqualTo(200);
            assertThat(first.getBody().get("state").asString()).isEqualTo("PAID");
            assertThat(first.getBody().get("replayed").asBoolean()).isFalse();
            assertThat(second.getStatusCode().value()).isEqualTo(200);
            assertThat(second.getBody().get("replayed").asBoolean()).isTrue();
            assertThat(second.getBody().get("chargeId").asString())
                .isEqualTo(first.getBody().get("chargeId").asString());
            JsonNode charges = http.get()
                .uri("/sim/gateways/{gateway}/charges", first.getBody().get("gateway").asString().toLowerCase())
                .retrieve()
                .body(JsonNode.class);
            assertThat(charges.findValues("orderId").stream().filter((orderId) -> orderId.asLong() == id)).hasSize(1);
        }
    }

    private static ResponseEntity<JsonNode> pay(RestClient http, long orderId) {
        return http.post()
            .uri("/orders/{id}/payment", orderId)
            .header("Idempotency-Key", "aot-" + orderId)
            .retrieve()
            .toEntity(JsonNode.class);
    }

}
