package dev.resilience.http;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceHttpClientAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code Retry-After} is waited exactly when it is within both the retry instance's
 * {@code max-delay} (5s here) and {@code resilience.http-client.max-retry-after}; beyond
 * either, the response is returned at once, so that no request is sent before the server
 * allows it. Waits are read from the virtual clock.
 */
class ResilientRestClientRetryAfterTests {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private static ScriptedHttpServer server;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceHttpClientAutoConfiguration.class))
        .withBean(VirtualTimeSource.class, () -> new VirtualTimeSource(NOW))
        .withPropertyValues("resilience.http-client.enabled=true", "resilience.http-client.max-retry-after=30s",
                "resilience.retry.instances.http-client.max-attempts=3",
                "resilience.retry.instances.http-client.delay=100ms",
                "resilience.retry.instances.http-client.max-delay=5s",
                "resilience.retry.instances.http-client.jitter=none",
                "resilience.retry.instances.http-client.budget.enabled=false");

    @BeforeAll
    static void startServer() throws IOException {
        server = new ScriptedHttpServer();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @BeforeEach
    void resetServer() {
        server.reset();
    }

    @Test
    void retryAfterWithinMaxDelayIsWaitedExactly() {
        server.reply(503, "maintenance", "Retry-After", "2");

        call((outcome, clock) -> {
            assertThat(outcome).isEqualTo("200 ok");
            assertThat(server.received()).hasSize(2);
            assertThat(clock.sleeps()).containsExactly(Duration.ofSeconds(2));
        });
    }

    @Test
    void retryAfterOfExactlyMaxDelayIsWaitedExactly() {
        server.reply(429, "slow down", "Retry-After", "5");

        call((outcome, clock) -> {
            assertThat(outcome).isEqualTo("200 ok");
            assertThat(clock.sleeps()).containsExactly(Duration.ofSeconds(5));
        });
    }

    @ParameterizedTest(name = "status {0}")
    @ValueSource(ints = { 429, 503 })
    void retryAfterBeyondMaxDelayReturnsTheResponseAtOnceThoughWithinMaxRetryAfter(int status) {
        server.reply(status, "come back in 10s", "Retry-After", "10");

        call((outcome, clock) -> {
            assertThat(outcome).isEqualTo(status + " come back in 10s");
            assertThat(server.received()).hasSize(1);
            assertThat(clock.sleeps()).isEmpty();
        });
    }

    @Test
    void retryAfterDateBeyondMaxDelayReturnsTheResponseAtOnce() {
        server.reply(503, "maintenance", "Retry-After", inSeconds(10));

        call((outcome, clock) -> {
            assertThat(outcome).isEqualTo("503 maintenance");
            assertThat(server.received()).hasSize(1);
            assertThat(clock.sleeps()).isEmpty();
        });
    }

    @Test
    void retryAfterBeyondMaxRetryAfterReturnsTheResponseAtOnceThoughWithinMaxDelay() {
        server.reply(503, "maintenance", "Retry-After", "2");

        call("resilience.http-client.max-retry-after=1s", (outcome, clock) -> {
            assertThat(outcome).isEqualTo("503 maintenance");
            assertThat(server.received()).hasSize(1);
            assertThat(clock.sleeps()).isEmpty();
        });
    }

    @Test
    void retryAfterWithLeadingZerosIsReadAsItsValue() {
        server.reply(503, "maintenance", "Retry-After", "0000000002");

        call((outcome, clock) -> {
            assertThat(outcome).isEqualTo("200 ok");
            assertThat(clock.sleeps()).containsExactly(Duration.ofSeconds(2));
        });
    }

    @ParameterizedTest(name = "Retry-After: {0}")
    @ValueSource(strings = { "99999999999999999999", "9223372036854775808", "999999999", "1000000000",
            "Fri, 31 Dec 9999 23:59:59 GMT" })
    void absurdlyLongRetryAfterReturnsTheResponseAtOnceWithoutAnError(String retryAfter) {
        server.reply(503, "maintenance", "Retry-After", retryAfter);

        call((outcome, clock) -> {
            assertThat(outcome).isEqualTo("503 maintenance");
            assertThat(server.received()).hasSize(1);
            assertThat(clock.sleeps()).isEmpty();
        });
    }

    @ParameterizedTest(name = "Retry-After: {0}")
    @ValueSource(strings = { "-5", "-99999999999999999999", "1.5", "soon", "+3", "Fri, 32 Foo 2025 99:99:99 GMT",
            "Thu, 01 Jan 1970 00:00:00 GMT" })
    void invalidOrPastRetryAfterIsIgnoredAndTheBackoffApplies(String retryAfter) {
        server.reply(503, "maintenance", "Retry-After", retryAfter);

        call((outcome, clock) -> {
            assertThat(outcome).isEqualTo("200 ok");
            assertThat(server.received()).hasSize(2);
            assertThat(clock.sleeps()).containsExactly(Duration.ofMillis(100));
        });
    }

    private void call(CallAssertion assertion) {
        call("resilience.http-client.max-retry-after=30s", assertion);
    }

    private void call(String property, CallAssertion assertion) {
        this.runner.withPropertyValues(property).run((context) -> {
            String outcome = client(context).get()
                .uri(server.url() + "/prices")
                .exchange(
                        (request, response) -> response.getStatusCode().value() + " " + response.bodyTo(String.class));
            assertion.accept(outcome, context.getBean(VirtualTimeSource.class));
        });
    }

    private static RestClient client(AssertableApplicationContext context) {
        RestClient.Builder builder = RestClient.builder();
        context.getBean(ResilientRestClientCustomizer.class).customize(builder);
        return builder.build();
    }

    private static String inSeconds(long seconds) {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.plusSeconds(seconds).atOffset(ZoneOffset.UTC));
    }

    @FunctionalInterface
    private interface CallAssertion {

        void accept(String outcome, VirtualTimeSource clock);

    }

}
