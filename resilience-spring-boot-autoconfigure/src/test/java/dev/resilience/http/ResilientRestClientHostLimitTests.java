package dev.resilience.http;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.resilience.autoconfigure.CircuitBreakerEventsAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceHttpClientAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceMetricsAutoConfiguration;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.event.CircuitBreakerEvents;
import dev.resilience.registry.ResilienceRegistry;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The breakers per host are bounded by {@code resilience.http-client.max-hosts}: requests
 * to {@value #HOSTS} distinct hosts (ports of one local server) never give more breakers,
 * meters or event buffers than the bound allows.
 */
class ResilientRestClientHostLimitTests {

    private static final int HOSTS = 200;

    /**
     * Five state gauges, five call counters and the failure-rate gauge; no transition
     * happens here.
     */
    private static final int METERS_PER_BREAKER = 11;

    private static final String OTHER = "http-client:other";

    private static ScriptedHttpServer server;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceHttpClientAutoConfiguration.class,
                        ResilienceMetricsAutoConfiguration.class, CircuitBreakerEventsAutoConfiguration.class))
        .withBean(SimpleMeterRegistry.class)
        .withBean(VirtualTimeSource.class)
        .withPropertyValues("resilience.http-client.enabled=true");

    @BeforeAll
    static void startServer() throws IOException {
        server = new ScriptedHttpServer(HOSTS);
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
    void hostsBeyondMaxHostsShareTheOtherBreakerWhileTheFirstOnesKeepTheirOwn() {
        this.runner.withPropertyValues("resilience.http-client.max-hosts=5").run((context) -> {
            RestClient client = client(context);
            for (int host = 0; host < HOSTS; host++) {
                assertThat(get(client, host)).isEqualTo("ok");
            }
            assertThat(get(client, 0)).isEqualTo("ok");
            assertThat(get(client, HOSTS - 1)).isEqualTo("ok");

            SortedMap<String, CircuitBreaker> breakers = context.getBean(ResilienceRegistry.class).circuitBreakers();
            Set<String> expected = IntStream.range(0, 5)
                .mapToObj(ResilientRestClientHostLimitTests::breakerName)
                .collect(Collectors.toCollection(TreeSet::new));
            expected.add(OTHER);
            assertThat(breakers).hasSize(6).containsOnlyKeys(expected);
            assertThat(successes(breakers.get(breakerName(0)))).isEqualTo(2);
            IntStream.range(1, 5)
                .forEach((host) -> assertThat(successes(breakers.get(breakerName(host)))).isEqualTo(1));
            assertThat(successes(breakers.get(OTHER))).isEqualTo(HOSTS - 5 + 1);
            assertThat(server.received()).hasSize(HOSTS + 2);
            assertOnlyTheseBreakersHaveMetersAndEvents(context, breakers.keySet());
            assertThat(context.getBean(ResilientClientHttpRequestInterceptor.class).hostsWithOwnBreaker()).hasSize(5);
        });
    }

    @Test
    void twoHundredHostsGetFiftyBreakersOfTheirOwnAndOneSharedByDefault() {
        this.runner.run((context) -> {
            RestClient client = client(context);
            for (int host = 0; host < HOSTS; host++) {
                assertThat(get(client, host)).isEqualTo("ok");
            }

            SortedMap<String, CircuitBreaker> breakers = context.getBean(ResilienceRegistry.class).circuitBreakers();
            assertThat(breakers).hasSize(51).containsKey(OTHER);
            IntStream.range(0, 50).forEach((host) -> assertThat(breakers).containsKey(breakerName(host)));
            assertThat(successes(breakers.get(OTHER))).isEqualTo(HOSTS - 50);
            assertOnlyTheseBreakersHaveMetersAndEvents(context, breakers.keySet());
            assertThat(context.getBean(ResilientClientHttpRequestInterceptor.class).hostsWithOwnBreaker()).hasSize(50);
        });
    }

    @Test
    void concurrentFirstRequestsToDistinctHostsGiveExactlyMaxHostsBreakersOfTheirOwn() {
        int threads = 64;
        int maxHosts = 8;
        this.runner.withPropertyValues("resilience.http-client.max-hosts=" + maxHosts).run((context) -> {
            RestClient client = client(context);
            CyclicBarrier together = new CyclicBarrier(threads);
            ExecutorService executor = Executors.newFixedThreadPool(threads);
            try {
                List<Future<String>> responses = new ArrayList<>();
                for (int host = 0; host < threads; host++) {
                    int target = host;
                    responses.add(executor.submit(() -> {
                        together.await(10, TimeUnit.SECONDS);
                        return get(client, target);
                    }));
                }
                for (Future<String> response : responses) {
                    assertThat(response.get(30, TimeUnit.SECONDS)).isEqualTo("ok");
                }
            }
            finally {
                executor.shutdownNow();
            }

            SortedMap<String, CircuitBreaker> breakers = context.getBean(ResilienceRegistry.class).circuitBreakers();
            Set<String> requested = IntStream.range(0, threads)
                .mapToObj(ResilientRestClientHostLimitTests::breakerName)
                .collect(Collectors.toSet());
            assertThat(breakers).hasSize(maxHosts + 1).containsKey(OTHER);
            breakers.forEach((name, breaker) -> {
                if (!name.equals(OTHER)) {
                    assertThat(requested).contains(name);
                    assertThat(successes(breaker)).isEqualTo(1);
                }
            });
            assertThat(successes(breakers.get(OTHER))).isEqualTo(threads - maxHosts);
            assertThat(server.received()).hasSize(threads);
            assertOnlyTheseBreakersHaveMetersAndEvents(context, breakers.keySet());
            assertThat(context.getBean(ResilientClientHttpRequestInterceptor.class).hostsWithOwnBreaker())
                .hasSize(maxHosts);
        });
    }

    private static void assertOnlyTheseBreakersHaveMetersAndEvents(AssertableApplicationContext context,
            Set<String> breakerNames) {
        List<Meter> breakerMeters = context.getBean(MeterRegistry.class)
            .getMeters()
            .stream()
            .filter((meter) -> meter.getId().getName().startsWith("resilience.circuitbreaker."))
            .toList();
        assertThat(breakerMeters).hasSize(breakerNames.size() * METERS_PER_BREAKER);
        assertThat(breakerMeters.stream().map((meter) -> meter.getId().getTag("name")).collect(Collectors.toSet()))
            .isEqualTo(breakerNames);
        assertThat(context.getBean(CircuitBreakerEvents.class).circuitBreakerNames()).isEqualTo(breakerNames);
    }

    private static RestClient client(AssertableApplicationContext context) {
        RestClient.Builder builder = RestClient.builder();
        context.getBean(ResilientRestClientCustomizer.class).customize(builder);
        return builder.build();
    }

    private static String get(RestClient client, int host) {
        return client.get().uri(server.url(host) + "/prices").retrieve().body(String.class);
    }

    private static String breakerName(int host) {
        return "http-client:127.0.0.1:" + server.port(host);
    }

    private static long successes(CircuitBreaker breaker) {
        return breaker.metrics().successfulCallsTotal();
    }

}
