package dev.resilience.http;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.MediaType;
import org.springframework.http.client.MultipartBodyBuilder;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;

import static dev.resilience.http.VirtualWaits.passWait;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Retried exchanges send the body of their first attempt again, whatever the body's
 * publisher: one that can be read only once included.
 */
@SpringBootTest(classes = ResilientWebClientBodyTests.TestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = { "resilience.http-client.enabled=true", "resilience.retry.instances.http-client.max-attempts=3",
                "resilience.retry.instances.http-client.delay=100ms",
                "resilience.retry.instances.http-client.jitter=none",
                "resilience.retry.instances.http-client.budget.enabled=false" })
class ResilientWebClientBodyTests {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final ScriptedHttpServer server = ScriptedHttpServer.registered(1);

    @Autowired
    private WebClient.Builder builder;

    @Autowired
    private VirtualTimeSource clock;

    @Test
    void bodyReadOnceFromAStreamIsSentWholeOnEveryAttempt() {
        server.replyAlways(503, 1);
        var stream = new ByteArrayInputStream("{\"price\":42}".getBytes(StandardCharsets.UTF_8));
        var body = DataBufferUtils.readInputStream(() -> stream, DefaultDataBufferFactory.sharedInstance, 4);
        var response = this.builder.baseUrl(server.url())
            .build()
            .put()
            .uri("/prices/eth")
            .contentType(MediaType.APPLICATION_JSON)
            .body(BodyInserters.fromDataBuffers(body))
            .retrieve()
            .toBodilessEntity()
            .toFuture();

        passWait(this.clock, server, Duration.ofMillis(100));

        assertThat(Mono.fromFuture(response).block(TIMEOUT).getStatusCode().value()).isEqualTo(200);
        assertThat(server.received()).hasSize(2)
            .allSatisfy((received) -> assertThat(received.body()).isEqualTo("{\"price\":42}"));
    }

    @Test
    void multipartBodyWithAPartReadOnceIsSentWholeWithItsBoundaryOnEveryAttempt() {
        server.replyAlways(503, 1);
        var stream = new ByteArrayInputStream("eth,42".getBytes(StandardCharsets.UTF_8));
        var parts = new MultipartBodyBuilder();
        parts.part("name", "prices");
        parts
            .asyncPart("file",
                    DataBufferUtils.readInputStream(() -> stream, DefaultDataBufferFactory.sharedInstance, 2),
                    DataBuffer.class)
            .filename("prices.csv")
            .contentType(MediaType.TEXT_PLAIN);
        var response = this.builder.baseUrl(server.url())
            .build()
            .put()
            .uri("/prices")
            .body(BodyInserters.fromMultipartData(parts.build()))
            .retrieve()
            .toBodilessEntity()
            .toFuture();

        passWait(this.clock, server, Duration.ofMillis(100));

        assertThat(Mono.fromFuture(response).block(TIMEOUT).getStatusCode().value()).isEqualTo(200);
        assertThat(server.received()).hasSize(2);
        String first = server.received().get(0).body();
        assertThat(first).contains("eth,42").contains("prices");
        assertThat(server.received().get(1).body()).isEqualTo(first);
        assertThat(server.received().get(0).contentType()).startsWith("multipart/form-data").contains("boundary=");
        assertThat(server.received().get(1).contentType()).isEqualTo(server.received().get(0).contentType());
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

    }

}
