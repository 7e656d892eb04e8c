package dev.resilience.http;

import java.time.Duration;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceHttpClientAutoConfiguration;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The breakers per host of {@code WebClient} calls are bounded by
 * {@code resilience.http-client.max-hosts}, and the bound is one with the
 * {@code RestClient}'s: both clients share the pipelines of the hosts.
 */
class ResilientWebClientHostLimitTests {

    private static final int HOSTS = 20;

    private static final String OTHER = "http-client:other";

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static final Duration POLL = Duration.ofMillis(2);

    @RegisterExtension
    static final ScriptedHttpServer server = ScriptedHttpServer.registered(HOSTS);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceHttpClientAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withPropertyValues("resilience.http-client.enabled=true", "resilience.http-client.max-hosts=5");

    @Test
    void hostsBeyondMaxHostsShareTheOtherBreakerWhileTheFirstOnesKeepTheirOwn() {
        this.runner.run((context) -> {
            WebClient client = webClient(context);
            for (int host = 0; host < HOSTS; host++) {
                assertThat(get(context, client, host)).isEqualTo("ok");
            }
            assertThat(get(context, client, 0)).isEqualTo("ok");

            SortedMap<String, CircuitBreaker> breakers = context.getBean(ResilienceRegistry.class).circuitBreakers();
            Set<String> expected = IntStream.range(0, 5)
                .mapToObj(ResilientWebClientHostLimitTests::breakerName)
                .collect(Collectors.toCollection(TreeSet::new));
            expected.add(OTHER);
            assertThat(breakers).containsOnlyKeys(expected);
            assertThat(successes(breakers.get(breakerName(0)))).isEqualTo(2);
            assertThat(successes(breakers.get(OTHER))).isEqualTo(HOSTS - 5);
            assertThat(server.received()).hasSize(HOSTS + 1);
            assertThat(context.getBean(HttpClientPipelines.class).hostsWithOwnBreaker()).hasSize(5);
        });
    }

    @Test
    void hostsTheRestClientCalledFirstTakeThePlacesOfTheWebClientsToo() {
        this.runner.run((context) -> {
            RestClient.Builder restClientBuilder = RestClient.builder();
            context.getBean(ResilientRestClientCustomizer.class).customize(restClientBuilder);
            RestClient restClient = restClientBuilder.build();
            for (int host = 0; host < 5; host++) {
                assertThat(restClient.get().uri(server.url(host) + "/prices").retrieve().body(String.class))
                    .isEqualTo("ok");
            }
            WebClient webClient = webClient(context);
            for (int host = 0; host < HOSTS; host++) {
                assertThat(get(context, webClient, host)).isEqualTo("ok");
            }

            SortedMap<String, CircuitBreaker> breakers = context.getBean(ResilienceRegistry.class).circuitBreakers();
            assertThat(breakers).hasSize(6).containsKey(OTHER);
            IntStream.range(0, 5)
                .forEach((host) -> assertThat(successes(breakers.get(breakerName(host)))).isEqualTo(2));
            assertThat(successes(breakers.get(OTHER))).isEqualTo(HOSTS - 5);
        });
    }

    private static WebClient webClient(AssertableApplicationContext context) {
        WebClient.Builder builder = WebClient.builder().clientConnector(new JdkClientHttpConnector());
        context.getBean(ResilientWebClientCustomizer.class).customize(builder);
        return builder.build();
    }

    /**
     * Returns the body of a GET to a host. The context's clock is virtual: should an
     * attempt fail on a transient I/O error of the loopback connection, its retry waits
     * for that clock, which is moved to the wait's end, as the real one would get there.
     * Such a call still counts one success of its host's breaker, which the tests assert;
     * the count of requests the server received does see a retried request it read.
     */
    private static String get(AssertableApplicationContext context, WebClient client, int host) {
        VirtualTimeSource time = context.getBean(VirtualTimeSource.class);
        CompletableFuture<String> body = client.get()
            .uri(server.url(host) + "/prices")
            .retrieve()
            .bodyToMono(String.class)
            .toFuture();
        await().pollDelay(Duration.ZERO)
            .pollInterval(POLL)
            .atMost(TIMEOUT)
            .until(() -> body.isDone() || (time.advanceToNextTask() && body.isDone()));
        return body.join();
    }

    private static String breakerName(int host) {
        return "http-client:127.0.0.1:" + server.port(host);
    }

    private static long successes(CircuitBreaker breaker) {
        return breaker.metrics().successfulCallsTotal();
    }

}
