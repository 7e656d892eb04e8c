package dev.resilience.http;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A {@code RestTemplate} built from Spring Boot's {@code RestTemplateBuilder} runs its
 * requests through the same interceptor, pipelines and rules as a {@code RestClient}: the
 * key scenarios of {@link ResilientRestClientTests}, against a local server, with the
 * waits read from the virtual clock.
 */
@SpringBootTest(classes = ResilientRestTemplateTests.TestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = { "resilience.http-client.enabled=true", "resilience.retry.instances.http-client.max-attempts=4",
                "resilience.retry.instances.http-client.delay=100ms",
                "resilience.retry.instances.http-client.jitter=none",
                "resilience.retry.instances.http-client.budget.enabled=false",
                "resilience.circuit-breaker.defaults.sliding-window-size=5",
                "resilience.circuit-breaker.defaults.minimum-calls=5" })
class ResilientRestTemplateTests {

    private static ScriptedHttpServer server;

    @Autowired
    private RestTemplateBuilder builder;

    @Autowired
    private ResilientClientHttpRequestInterceptor interceptor;

    @Autowired
    private VirtualTimeSource clock;

    @Autowired
    private ResilienceRegistry registry;

    @Autowired
    private MeterRegistry meters;

    private RestTemplate template;

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
        this.template = this.builder.rootUri(server.url()).build();
        this.registry.findCircuitBreaker(breakerName())
            .ifPresent((breaker) -> breaker.transitionTo(CircuitBreakerState.CLOSED));
        this.sleepsBefore = this.clock.sleeps().size();
    }

    @Test
    void everyAttemptReachesTheInterceptorsAfterItWithTheHeadersTheTemplateGave() {
        server.replyAlways(503, 2);
        List<List<String>> signatures = new CopyOnWriteArrayList<>();
        RestTemplate signing = this.builder.rootUri(server.url()).additionalInterceptors((request, body, execution) -> {
            request.getHeaders().add("X-Signature", "sig");
            return execution.execute(request, body);
        }, (request, body, execution) -> {
            signatures.add(List.copyOf(request.getHeaders().get("X-Signature")));
            return execution.execute(request, body);
        }).build();

        assertThat(signing.getForObject("/prices", String.class)).isEqualTo("ok");

        assertThat(server.received()).hasSize(3);
        assertThat(signatures).hasSize(3).allSatisfy((values) -> assertThat(values).containsExactly("sig"));
    }

    @Test
    void templateFromTheBuilderHasTheInterceptorFirst() {
        RestTemplate withOwn = this.builder
            .additionalInterceptors((request, body, execution) -> execution.execute(request, body))
            .build();

        assertThat(withOwn.getInterceptors()).hasSize(2).first().isSameAs(this.interceptor);
    }

    @Test
    void getIsRetriedOnServiceUnavailableUntilItSucceedsAsOneObservedCall() {
        server.replyAlways(503, 2);
        long successesBefore = calls("success");

        ResponseEntity<String> response = this.template.getForEntity("/prices", String.class);

        assertThat(response.getStatusCode().value()).isEqualTo(200);
        assertThat(response.getBody()).isEqualTo("ok");
        assertThat(server.received()).hasSize(3);
        assertThat(sleeps()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
        assertThat(calls("success")).isEqualTo(successesBefore + 1);
    }

    @Test
    void tooManyRequestsWaitsAtLeastTheRetryAfterSeconds() {
        server.reply(429, "slow down", "Retry-After", "2");

        assertThat(this.template.getForObject("/prices", String.class)).isEqualTo("ok");
        assertThat(server.received()).hasSize(2);
        assertThat(sleeps()).containsExactly(Duration.ofSeconds(2));
    }

    @Test
    void retryAfterLongerThanTheLimitIsReturnedToTheCallerWithoutWaiting() {
        server.reply(429, "come back tomorrow", "Retry-After", "86400");

        assertThatExceptionOfType(HttpClientErrorException.TooManyRequests.class)
            .isThrownBy(() -> this.template.getForObject("/prices", String.class));
        assertThat(server.received()).hasSize(1);
        assertThat(sleeps()).isEmpty();
    }

    @Test
    void exhaustedAttemptsReturnTheLastResponseToTheCaller() {
        server.replyAlways(503, 4);

        assertThatExceptionOfType(HttpServerErrorException.ServiceUnavailable.class)
            .isThrownBy(() -> this.template.getForObject("/prices", String.class))
            .satisfies((ex) -> assertThat(ex.getResponseBodyAsString()).isEqualTo("reply 4"));
        assertThat(server.received()).hasSize(4);
        assertThat(sleeps()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400));
    }

    @Test
    void postWithoutIdempotencyKeyIsAttemptedOnce() {
        server.replyAlways(503, 2);

        assertThatExceptionOfType(HttpServerErrorException.ServiceUnavailable.class)
            .isThrownBy(() -> this.template.postForObject("/orders", "{\"item\":\"book\"}", String.class));
        assertThat(server.received()).hasSize(1);
        assertThat(sleeps()).isEmpty();
    }

    @Test
    void postWithIdempotencyKeyIsRetriedWithTheSameKeyAndBody() {
        server.replyAlways(503, 2);
        HttpHeaders headers = new HttpHeaders();
        headers.set("Idempotency-Key", "order-42");

        ResponseEntity<String> response = this.template.postForEntity("/orders",
                new HttpEntity<>("{\"item\":\"book\"}", headers), String.class);

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
            .isThrownBy(() -> this.template.getForObject("/prices/unknown", String.class));
        assertThat(server.received()).hasSize(1);
        CircuitBreaker breaker = this.registry.findCircuitBreaker(breakerName()).orElseThrow();
        assertThat(breaker.metrics().failedCalls()).isZero();
        assertThat(breaker.metrics().bufferedCalls()).isEqualTo(1);
    }

    @Test
    void breakerOfTheHostOpensAfterRepeatedFailuresAndRejectsWithoutCallingIt() {
        server.replyAlways(500, 5);
        for (int i = 0; i < 5; i++) {
            assertThatExceptionOfType(HttpServerErrorException.InternalServerError.class)
                .isThrownBy(() -> this.template.postForObject("/orders", "{}", String.class));
        }

        assertThatExceptionOfType(CallNotPermittedException.class)
            .isThrownBy(() -> this.template.getForObject("/prices", String.class))
            .satisfies((ex) -> assertThat(ex.circuitBreakerName()).isEqualTo(breakerName()));
        assertThat(server.received()).hasSize(5);
        assertThat(this.registry.findCircuitBreaker(breakerName()).orElseThrow().state())
            .isEqualTo(CircuitBreakerState.OPEN);
    }

    private long calls(String status) {
        Timer timer = this.meters.find("resilience.calls")
            .tags("name", "http-client", "status", status, "fallback", "false")
            .timer();
        return (timer != null) ? timer.count() : 0;
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
