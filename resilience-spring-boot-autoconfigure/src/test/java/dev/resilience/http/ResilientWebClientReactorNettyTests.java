package dev.resilience.http;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceHttpClientAutoConfiguration;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import io.netty.handler.timeout.ReadTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;

import static dev.resilience.http.VirtualWaits.passWait;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A {@code WebClient} over Reactor Netty, whose read timeout is an unchecked
 * {@link ReadTimeoutException} rather than an {@code IOException}: an idempotent request
 * is retried after it as after any I/O error, and one that may not be sent twice is not.
 * The server never answers the first request, so the client's response timeout (wall
 * clock, short) is certain to fire; the backoff after it is a timer of the virtual clock.
 */
class ResilientWebClientReactorNettyTests {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static final Duration RESPONSE_TIMEOUT = Duration.ofMillis(300);

    /**
     * How long the response timeout is waited for, generously past it for a busy machine.
     */
    private static final Duration TIMED_OUT_WITHIN = Duration.ofSeconds(30);

    @RegisterExtension
    static final ScriptedHttpServer server = ScriptedHttpServer.registered(1);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceHttpClientAutoConfiguration.class))
        .withBean(VirtualTimeSource.class, VirtualTimeSource::new)
        .withPropertyValues("resilience.http-client.enabled=true",
                "resilience.retry.instances.http-client.max-attempts=3",
                "resilience.retry.instances.http-client.delay=100ms",
                "resilience.retry.instances.http-client.jitter=none",
                "resilience.retry.instances.http-client.budget.enabled=false");

    @Test
    void getWhoseResponseTimesOutIsRetriedAndTheTimeoutCountsAsABreakerFailure() {
        this.runner.run((context) -> {
            VirtualTimeSource clock = context.getBean(VirtualTimeSource.class);
            CountDownLatch stalled = new CountDownLatch(1);
            server.replyWhenOpen(stalled, 200, "too late");
            try {
                var body = client(context).get().uri("/prices").retrieve().bodyToMono(String.class).toFuture();
                await().atMost(TIMED_OUT_WITHIN).until(() -> clock.pendingTasks() == 1);
                stalled.countDown();

                passWait(clock, server, Duration.ofMillis(100));

                assertThat(Mono.fromFuture(body).block(TIMEOUT)).isEqualTo("ok");
                assertThat(server.received()).hasSize(2);
                assertThat(breaker(context).metrics().failedCalls()).isOne();
            }
            finally {
                stalled.countDown();
            }
        });
    }

    @Test
    void postWithoutIdempotencyKeyWhoseResponseTimesOutIsNotRetried() {
        this.runner.run((context) -> {
            VirtualTimeSource clock = context.getBean(VirtualTimeSource.class);
            CountDownLatch stalled = new CountDownLatch(1);
            server.replyWhenOpen(stalled, 200, "too late");
            try {
                Mono<String> order = client(context).post()
                    .uri("/orders")
                    .bodyValue("{\"item\":\"book\"}")
                    .retrieve()
                    .bodyToMono(String.class);

                assertThatExceptionOfType(WebClientRequestException.class)
                    .isThrownBy(() -> order.block(TIMED_OUT_WITHIN))
                    .withCauseInstanceOf(ReadTimeoutException.class);
                assertThat(clock.pendingTasks()).isZero();
                assertThat(server.received()).hasSize(1);
                assertThat(breaker(context).metrics().failedCalls()).isOne();
            }
            finally {
                stalled.countDown();
            }
        });
    }

    private static WebClient client(AssertableApplicationContext context) {
        WebClient.Builder builder = WebClient.builder()
            .clientConnector(new ReactorClientHttpConnector(HttpClient.create().responseTimeout(RESPONSE_TIMEOUT)));
        context.getBean(ResilientWebClientCustomizer.class).customize(builder);
        return builder.baseUrl(server.url()).build();
    }

    private static CircuitBreaker breaker(AssertableApplicationContext context) {
        return context.getBean(ResilienceRegistry.class)
            .findCircuitBreaker("http-client:127.0.0.1:" + server.port())
            .orElseThrow();
    }

}
