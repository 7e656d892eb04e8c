package dev.resilience.http;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;

import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@SpringBootTest(classes = ResilientRestClientTests.TestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = { "resilience.http-client.enabled=true", "resilience.retry.instances.http-client.max-attempts=4",
                "resilience.retry.instances.http-client.delay=100ms",
                "resilience.retry.instances.http-client.jitter=none",
                "resilience.retry.instances.http-client.budget.enabled=false",
                "resilience.circuit-breaker.defaults.sliding-window-size=5",
                "resilience.circuit-breaker.defaults.minimum-calls=5" })
class ResilientRestClientTests {

    private static ScriptedHttpServer server;

    @Autowired
    private RestClient.Builder builder;

    @Autowired
    private VirtualTimeSource clock;

    @Autowired
    private ResilienceRegistry registry;

    @Autowired
    private DeadLetterStore deadLetters;

    private RestClient client;

    private int sleepsBefore;

    @BeforeAll
    static void startServer() throws IOException {
        server = new ScriptedHttpServer();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @BeforeEach
    void resetServerAndBreaker() {
        server.reset();
        this.client = this.builder.baseUrl(server.url()).build();
        this.registry.findCircuitBreaker(breakerName())
            .ifPresent((breaker) -> breaker.transitionTo(CircuitBreakerState.CLOSED));
        this.sleepsBefore = this.clock.sleeps().size();
    }

    @Test
    void getIsRetriedOnServiceUnavailableUntilItSucceeds() {
        server.replyAlways(503, 2);

        ResponseEntity<String> response = this.client.get().uri("/prices").retrieve().toEntity(String.class);

        assertThat(response.getStatusCode().value()).isEqualTo(200);
        assertThat(response.getBody()).isEqualTo("ok");
        assertThat(server.received()).hasSize(3);
        assertThat(sleeps()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
    }

    @Test
    void tooManyRequestsWaitsAtLeastTheRetryAfterSeconds() {
        server.reply(429, "slow down", "Retry-After", "2");

        assertThat(this.client.get().uri("/prices").retrieve().body(String.class)).isEqualTo("ok");
        assertThat(server.received()).hasSize(2);
        assertThat(sleeps()).containsExactly(Duration.ofSeconds(2));
    }

    @Test
    void retryAfterAsAnHttpDateWaitsUntilThatDate() {
        Instant now = this.clock.now();
        this.clock.advance(Duration.between(now, now.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1)));
        String inThreeSeconds = DateTimeFormatter.RFC_1123_DATE_TIME
            .format(this.clock.now().plusSeconds(3).atOffset(ZoneOffset.UTC));
        server.reply(503, "maintenance", "Retry-After", inThreeSeconds);

        assertThat(this.client.get().uri("/prices").retrieve().body(String.class)).isEqualTo("ok");
        assertThat(sleeps()).containsExactly(Duration.ofSeconds(3));
    }

    @Test
    void retryAfterLongerThanTheLimitIsReturnedToTheCallerWithoutWaiting() {
        server.reply(429, "come back tomorrow", "Retry-After", "86400");

        assertThatExceptionOfType(HttpClientErrorException.TooManyRequests.class)
            .isThrownBy(() -> this.client.get().uri("/prices").retrieve().body(String.class));
        assertThat(server.received()).hasSize(1);
        assertThat(sleeps()).isEmpty();
    }

    @Test
    void exhaustedAttemptsReturnTheLastResponseToTheCaller() {
        server.replyAlways(503, 4);

        assertThatExceptionOfType(HttpServerErrorException.ServiceUnavailable.class)
            .isThrownBy(() -> this.client.get().uri("/prices").retrieve().body(String.class))
            .satisfies((ex) -> assertThat(ex.getResponseBodyAsString()).isEqualTo("reply 4"));
        assertThat(server.received()).hasSize(4);
        assertThat(sleeps()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400));
    }

    @Test
    void deadLetterOfExhaustedAttemptsNamesTheUrlWithoutUserInfoOrQuery() {
        server.replyAlways(503, 4);
        RestClient withCredentials = this.builder.baseUrl("http://user:secret@127.0.0.1:" + server.port()).build();

        assertThatExceptionOfType(HttpServerErrorException.ServiceUnavailable.class)
            .isThrownBy(() -> withCredentials.get().uri("/prices?token=abc").retrieve().body(String.class));
        DeadLetter letter = this.deadLetters.list(1).get(0);
        assertThat(letter.method()).isEqualTo("GET http://127.0.0.1:" + server.port() + "/prices");
        assertThat(letter.attempts()).isEqualTo(4);
    }

    @Test
    void deadLetterOfAFailedConnectionKeepsTheUrlWithoutUserInfoQueryOrFragment() {
        RestClient failing = this.builder.clone().baseUrl("https://user:pw@host").requestFactory((uri, method) -> {
            throw new IOException("Connect to " + uri + " failed");
        }).build();

        assertThatExceptionOfType(ResourceAccessException.class)
            .isThrownBy(() -> failing.get().uri("/path?token=abc#part").retrieve().body(String.class));
        DeadLetter letter = this.deadLetters.list(1).get(0);
        assertThat(letter.method()).isEqualTo("GET https://host/path");
        assertThat(letter.errorMessage()).isEqualTo("Connect to https://host/path failed");
        assertThat(letter.toString().replace(letter.id(), "<id>")).doesNotContain("pw", "token", "abc", "part");
    }

    @Test
    void postWithoutIdempotencyKeyIsAttemptedOnce() {
        server.replyAlways(503, 2);

        assertThat(postStatus()).isEqualTo(503);
        assertThat(server.received()).hasSize(1);
        assertThat(sleeps()).isEmpty();
    }

    @Test
    void postWithIdempotencyKeyIsRetriedWithTheSameKeyAndBody() {
        server.replyAlways(503, 2);

        ResponseEntity<String> response = this.client.post()
            .uri("/orders")
            .header("Idempotency-Key", "order-42")
            .body("{\"item\":\"book\"}")
            .retrieve()
            .toEntity(String.class);

        assertThat(response.getStatusCode().value()).isEqualTo(200);
        assertThat(server.received()).hasSize(3).allSatisfy((received) -> {
            assertThat(received.method()).isEqualTo("POST");
            assertThat(received.idempotencyKey()).isEqualTo("order-42");
            assertThat(received.body()).isEqualTo("{\"item\":\"book\"}");
        });
    }

    @Test
    void clientErrorIsReturnedAtOnceAndCountsAsABreakerSuccess() {
        server.reply(404, "no such price");

        assertThatExceptionOfType(HttpClientErrorException.NotFound.class)
            .isThrownBy(() -> this.client.get().uri("/prices/unknown").retrieve().body(String.class));
        assertThat(server.received()).hasSize(1);
        assertThat(sleeps()).isEmpty();
        CircuitBreaker breaker = this.registry.findCircuitBreaker(breakerName()).orElseThrow();
        assertThat(breaker.metrics().failedCalls()).isZero();
        assertThat(breaker.metrics().bufferedCalls()).isEqualTo(1);
    }

    @Test
    void refusedConnectionIsRetriedThenSurfacesAsAnIoError() throws IOException {
        try (RefusingPort refusing = new RefusingPort()) {
            RestClient closed = this.builder.baseUrl(refusing.baseUrl()).build();

            assertThatExceptionOfType(ResourceAccessException.class)
                .isThrownBy(() -> closed.get().uri("/prices").retrieve().body(String.class))
                .withCauseInstanceOf(ConnectException.class);
            assertThat(sleeps()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200),
                    Duration.ofMillis(400));
            assertThat(this.registry.findCircuitBreaker("http-client:127.0.0.1:" + refusing.port())
                .orElseThrow()
                .metrics()
                .failedCalls()).isEqualTo(4);
        }
    }

    @Test
    void breakerOfTheHostOpensAfterRepeatedFailuresAndRejectsWithoutCallingIt() {
        server.replyAlways(500, 5);
        for (int i = 0; i < 5; i++) {
            assertThat(postStatus()).isEqualTo(500);
        }

        assertThatExceptionOfType(CallNotPermittedException.class)
            .isThrownBy(() -> this.client.get().uri("/prices").retrieve().body(String.class))
            .satisfies((ex) -> assertThat(ex.circuitBreakerName()).isEqualTo(breakerName()));
        assertThat(server.received()).hasSize(5);
        assertThat(this.registry.findCircuitBreaker(breakerName()).orElseThrow().state())
            .isEqualTo(CircuitBreakerState.OPEN);
    }

    @Test
    void breakersAreNamedByTheLowerCaseHostAndThePortUnlessItIsTheSchemesDefault() {
        assertThat(ResilientClientHttpRequestInterceptor.circuitBreakerName(URI.create("https://api.example.com/x")))
            .isEqualTo("http-client:api.example.com");
        assertThat(ResilientClientHttpRequestInterceptor.circuitBreakerName(URI.create("http://api.example.com:80/x")))
            .isEqualTo("http-client:api.example.com");
        assertThat(ResilientClientHttpRequestInterceptor.circuitBreakerName(URI.create("http://localhost:8080/x")))
            .isEqualTo("http-client:localhost:8080");
        assertThat(ResilientClientHttpRequestInterceptor.circuitBreakerName(URI.create("https://API.Example.com/x")))
            .isEqualTo("http-client:api.example.com");
    }

    @Test
    void breakerNamesNeverCarryUserInfo() {
        assertThat(ResilientClientHttpRequestInterceptor
            .circuitBreakerName(URI.create("https://user:secret@api.example.com/x")))
            .isEqualTo("http-client:api.example.com");
        assertThat(ResilientClientHttpRequestInterceptor
            .circuitBreakerName(URI.create("http://user:secret@under_score.example.com:8080/x")))
            .isEqualTo("http-client:under_score.example.com:8080");
    }

    private Integer postStatus() {
        return this.client.post()
            .uri("/orders")
            .body("{\"item\":\"book\"}")
            .exchange((request, response) -> response.getStatusCode().value());
    }

    private static String breakerName() {
        return "http-client:127.0.0.1:" + server.port();
    }

    private List<Duration> sleeps() {
        List<Duration> all = this.clock.sleeps();
        return all.subList(this.sleepsBefore, all.size());
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
