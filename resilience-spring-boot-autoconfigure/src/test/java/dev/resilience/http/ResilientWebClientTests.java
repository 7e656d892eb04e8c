package dev.resilience.http;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.IntStream;

import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import static dev.resilience.http.VirtualWaits.passWait;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The auto-configured {@code WebClient.Builder} of an application gives clients whose
 * exchanges follow the rules of the {@code RestClient} interceptor, on the engine's
 * asynchronous path: every backoff is a timer of the virtual clock, passed here exactly.
 */
@SpringBootTest(classes = ResilientWebClientTests.TestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = { "resilience.http-client.enabled=true", "resilience.retry.instances.http-client.max-attempts=4",
                "resilience.retry.instances.http-client.delay=100ms",
                "resilience.retry.instances.http-client.jitter=none",
                "resilience.retry.instances.http-client.budget.enabled=false",
                "resilience.circuit-breaker.defaults.sliding-window-size=5",
                "resilience.circuit-breaker.defaults.minimum-calls=5" })
class ResilientWebClientTests {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final ScriptedHttpServer server = ScriptedHttpServer.registered(2);

    @Autowired
    private WebClient.Builder builder;

    @Autowired
    private RestClient.Builder restClientBuilder;

    @Autowired
    private ResilientExchangeFilterFunction filter;

    @Autowired
    private VirtualTimeSource clock;

    @Autowired
    private ResilienceRegistry registry;

    @Autowired
    private MeterRegistry meters;

    private WebClient client;

    @BeforeEach
    void resetServerAndBreakers() {
        this.client = this.builder.baseUrl(server.url()).build();
        this.registry.circuitBreakers().values().forEach((breaker) -> breaker.transitionTo(CircuitBreakerState.CLOSED));
    }

    @Test
    void autoConfiguredBuilderHasTheFilterFirst() {
        this.builder.clone()
            .filter((request, next) -> next.exchange(request))
            .filters((filters) -> assertThat(filters).hasSize(2).first().isSameAs(this.filter));
    }

    @Test
    void getIsRetriedOnServiceUnavailableUntilItSucceeds() {
        server.replyAlways(503, 2);
        var response = this.client.get().uri("/prices").retrieve().toEntity(String.class).toFuture();

        passWait(this.clock, server, Duration.ofMillis(100));
        passWait(this.clock, server, Duration.ofMillis(200));

        assertThat(Mono.fromFuture(response).block(TIMEOUT)).satisfies((entity) -> {
            assertThat(entity.getStatusCode().value()).isEqualTo(200);
            assertThat(entity.getBody()).isEqualTo("ok");
        });
        assertThat(server.received()).hasSize(3);
    }

    @Test
    void tooManyRequestsWaitsExactlyTheRetryAfterSeconds() {
        server.reply(429, "slow down", "Retry-After", "2");
        var body = this.client.get().uri("/prices").retrieve().bodyToMono(String.class).toFuture();

        passWait(this.clock, server, Duration.ofSeconds(2));

        assertThat(Mono.fromFuture(body).block(TIMEOUT)).isEqualTo("ok");
        assertThat(server.received()).hasSize(2);
    }

    @Test
    void retryAfterAsAnHttpDateWaitsUntilThatDate() {
        Instant now = this.clock.now();
        this.clock.advance(Duration.between(now, now.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1)));
        String inThreeSeconds = DateTimeFormatter.RFC_1123_DATE_TIME
            .format(this.clock.now().plusSeconds(3).atOffset(ZoneOffset.UTC));
        server.reply(503, "maintenance", "Retry-After", inThreeSeconds);
        var body = this.client.get().uri("/prices").retrieve().bodyToMono(String.class).toFuture();

        passWait(this.clock, server, Duration.ofSeconds(3));

        assertThat(Mono.fromFuture(body).block(TIMEOUT)).isEqualTo("ok");
    }

    @Test
    void retryAfterLongerThanTheLimitIsReturnedToTheCallerWithoutWaiting() {
        server.reply(429, "come back tomorrow", "Retry-After", "86400");

        assertThatExceptionOfType(WebClientResponseException.TooManyRequests.class)
            .isThrownBy(() -> this.client.get().uri("/prices").retrieve().bodyToMono(String.class).block(TIMEOUT))
            .satisfies((ex) -> assertThat(ex.getResponseBodyAsString()).isEqualTo("come back tomorrow"));
        assertThat(server.received()).hasSize(1);
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void exhaustedAttemptsReturnTheLastResponseToTheCaller() {
        server.replyAlways(503, 4);
        var body = this.client.get().uri("/prices").retrieve().bodyToMono(String.class).toFuture();

        passWait(this.clock, server, Duration.ofMillis(100));
        passWait(this.clock, server, Duration.ofMillis(200));
        passWait(this.clock, server, Duration.ofMillis(400));

        assertThatExceptionOfType(WebClientResponseException.ServiceUnavailable.class)
            .isThrownBy(() -> Mono.fromFuture(body).block(TIMEOUT))
            .satisfies((ex) -> assertThat(ex.getResponseBodyAsString()).isEqualTo("reply 4"));
        assertThat(server.received()).hasSize(4);
    }

    @Test
    void postWithoutIdempotencyKeyIsAttemptedOnce() {
        server.replyAlways(503, 2);

        assertThat(postStatus(this.client)).isEqualTo(503);
        assertThat(server.received()).hasSize(1);
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void postWithIdempotencyKeyIsRetriedWithTheSameKeyAndBody() {
        server.replyAlways(503, 2);
        var response = this.client.post()
            .uri("/orders")
            .header("Idempotency-Key", "order-42")
            .bodyValue("{\"item\":\"book\"}")
            .retrieve()
            .toEntity(String.class)
            .toFuture();

        passWait(this.clock, server, Duration.ofMillis(100));
        passWait(this.clock, server, Duration.ofMillis(200));

        assertThat(Mono.fromFuture(response).block(TIMEOUT).getStatusCode().value()).isEqualTo(200);
        assertThat(server.received()).hasSize(3).allSatisfy((received) -> {
            assertThat(received.method()).isEqualTo("POST");
            assertThat(received.idempotencyKey()).isEqualTo("order-42");
            assertThat(received.body()).isEqualTo("{\"item\":\"book\"}");
        });
    }

    @Test
    void clientErrorIsReturnedAtOnceAndCountsAsABreakerSuccess() {
        server.reply(404, "no such price");

        assertThatExceptionOfType(WebClientResponseException.NotFound.class).isThrownBy(
                () -> this.client.get().uri("/prices/unknown").retrieve().bodyToMono(String.class).block(TIMEOUT));
        assertThat(server.received()).hasSize(1);
        CircuitBreaker breaker = this.registry.findCircuitBreaker(breakerName(0)).orElseThrow();
        assertThat(breaker.metrics().failedCalls()).isZero();
        assertThat(breaker.metrics().bufferedCalls()).isEqualTo(1);
    }

    @Test
    void refusedConnectionIsRetriedThenSurfacesAsTheExchangesRequestError() throws IOException {
        try (RefusingPort refusing = new RefusingPort()) {
            WebClient closed = this.builder.baseUrl(refusing.baseUrl()).build();
            var body = closed.get().uri("/prices").retrieve().bodyToMono(String.class).toFuture();

            passWait(this.clock, server, Duration.ofMillis(100));
            passWait(this.clock, server, Duration.ofMillis(200));
            passWait(this.clock, server, Duration.ofMillis(400));

            assertThatExceptionOfType(WebClientRequestException.class)
                .isThrownBy(() -> Mono.fromFuture(body).block(TIMEOUT))
                .withCauseInstanceOf(ConnectException.class);
            assertThat(this.registry.findCircuitBreaker("http-client:127.0.0.1:" + refusing.port())
                .orElseThrow()
                .metrics()
                .failedCalls()).isEqualTo(4);
        }
    }

    @Test
    void breakerOfTheHostOpensAfterRepeatedFailuresWhileAnotherHostsStaysClosed() {
        server.replyAlways(500, 5);
        for (int i = 0; i < 5; i++) {
            assertThat(postStatus(this.client)).isEqualTo(500);
        }

        assertThatExceptionOfType(CallNotPermittedException.class)
            .isThrownBy(() -> this.client.get().uri("/prices").retrieve().bodyToMono(String.class).block(TIMEOUT))
            .satisfies((ex) -> assertThat(ex.circuitBreakerName()).isEqualTo(breakerName(0)));
        assertThat(server.received()).hasSize(5);
        assertThat(this.registry.findCircuitBreaker(breakerName(0)).orElseThrow().state())
            .isEqualTo(CircuitBreakerState.OPEN);
        WebClient other = this.builder.baseUrl(server.url(1)).build();
        assertThat(other.get().uri("/prices").retrieve().bodyToMono(String.class).block(TIMEOUT)).isEqualTo("ok");
        assertThat(server.received()).hasSize(6);
        assertThat(this.registry.findCircuitBreaker(breakerName(1)).orElseThrow().state())
            .isEqualTo(CircuitBreakerState.CLOSED);
    }

    @Test
    void retriedCallRecordsTheMetersARestClientCallRecords() {
        server.replyAlways(503, 1);
        List<Double> beforeRestClient = meterValues();
        ResponseEntity<String> fromRestClient = this.restClientBuilder.baseUrl(server.url())
            .build()
            .get()
            .uri("/prices")
            .retrieve()
            .toEntity(String.class);
        assertThat(fromRestClient.getBody()).isEqualTo("ok");
        List<Double> afterRestClient = meterValues();
        server.replyAlways(503, 1);

        var body = this.client.get().uri("/prices").retrieve().bodyToMono(String.class).toFuture();
        passWait(this.clock, server, Duration.ofMillis(100));

        assertThat(Mono.fromFuture(body).block(TIMEOUT)).isEqualTo("ok");
        List<Double> afterWebClient = meterValues();
        assertThat(differences(beforeRestClient, afterRestClient)).containsExactly(1.0, 1.0, 1.0, 1.0);
        assertThat(differences(afterRestClient, afterWebClient)).containsExactly(1.0, 1.0, 1.0, 1.0);
        assertThat(server.received()).hasSize(4);
    }

    /**
     * Returns the retries of the HTTP-client instance, the failed and successful calls of
     * the host's breaker, and the successful calls of the instance's timer.
     */
    private List<Double> meterValues() {
        return List.of(this.meters.get("resilience.retries").tag("name", "http-client").functionCounter().count(),
                breakerCalls("failed"), breakerCalls("successful"),
                (double) this.meters.get("resilience.calls")
                    .tags("name", "http-client", "status", "success", "fallback", "false")
                    .timer()
                    .count());
    }

    private double breakerCalls(String kind) {
        return this.meters.get("resilience.circuitbreaker.calls")
            .tags("name", breakerName(0), "kind", kind)
            .functionCounter()
            .count();
    }

    private static List<Double> differences(List<Double> before, List<Double> after) {
        return IntStream.range(0, before.size()).mapToObj((i) -> after.get(i) - before.get(i)).toList();
    }

    private static Integer postStatus(WebClient client) {
        return client.post()
            .uri("/orders")
            .bodyValue("{\"item\":\"book\"}")
            .exchangeToMono((response) -> response.releaseBody().thenReturn(response.statusCode().value()))
            .block(TIMEOUT);
    }

    private static String breakerName(int port) {
        return "http-client:127.0.0.1:" + server.port(port);
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
