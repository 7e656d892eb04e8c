package dev.resilience.http;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.resilience.aop.CallObserver;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import static dev.resilience.http.VirtualWaits.passWait;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Each request of a {@code RestClient} or a {@code WebClient} is one
 * {@code resilience.calls} observation, whatever its attempts, named after the
 * HTTP-client retry instance and tagged as an annotated method's calls are: the timer's
 * counts after each scenario, and the observations recorded by a handler of the
 * application's registry.
 */
@SpringBootTest(classes = HttpClientPipelinesObservationTests.TestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = { "resilience.http-client.enabled=true", "resilience.retry.instances.http-client.max-attempts=4",
                "resilience.retry.instances.http-client.delay=100ms",
                "resilience.retry.instances.http-client.jitter=none",
                "resilience.retry.instances.http-client.budget.enabled=false" })
class HttpClientPipelinesObservationTests {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static final String NAME = "http-client";

    private static final String CLIENT_OBSERVATION = "http.client.requests";

    @RegisterExtension
    static final ScriptedHttpServer server = ScriptedHttpServer.registered(1);

    @Autowired
    private RestClient.Builder restClients;

    @Autowired
    private WebClient.Builder webClients;

    @Autowired
    private VirtualTimeSource clock;

    @Autowired
    private ResilienceRegistry registry;

    @Autowired
    private MeterRegistry meters;

    @Autowired
    private ObservationRegistry observations;

    @Autowired
    private RecordedCalls calls;

    private final List<Observation.@Nullable Context> attemptObservations = new CopyOnWriteArrayList<>();

    private Map<String, Long> countsBefore;

    @BeforeEach
    void closeTheBreakerAndForgetTheCalls() {
        this.registry.circuitBreaker(breakerName()).transitionTo(CircuitBreakerState.CLOSED);
        this.calls.clear();
        this.countsBefore = counts();
    }

    @Test
    void restClientRequestSucceedingAtOnceIsOneSuccessfulCall() {
        assertThat(restClient().get().uri("/prices").retrieve().body(String.class)).isEqualTo("ok");

        assertThat(countsSince()).containsExactlyEntriesOf(expected("success", 1));
        assertThat(this.calls.only()).satisfies((call) -> {
            assertThat(call.tags()).containsExactlyInAnyOrder(KeyValue.of("name", NAME),
                    KeyValue.of("status", "success"), KeyValue.of("fallback", "false"));
            assertThat(call.parent()).isEqualTo(CLIENT_OBSERVATION);
            assertThat(call.retries()).isZero();
        });
    }

    @Test
    void restClientRequestSucceedingAfterTwoRetriesIsOneSuccessfulCallWhoseAttemptsRunInsideIt() {
        server.replyAlways(503, 2);

        assertThat(restClient().get().uri("/prices").retrieve().body(String.class)).isEqualTo("ok");

        assertThat(server.received()).hasSize(3);
        assertThat(countsSince()).containsExactlyEntriesOf(expected("success", 1));
        RecordedCall call = this.calls.only();
        assertThat(call.retries()).isEqualTo(2);
        assertThat(call.parent()).isEqualTo(CLIENT_OBSERVATION);
        assertThat(this.attemptObservations).hasSize(3)
            .allSatisfy((current) -> assertThat(current).isSameAs(call.context()));
    }

    @Test
    void restClientRequestExhaustingItsAttemptsIsOneFailedCall() {
        server.replyAlways(503, 4);

        assertThatExceptionOfType(HttpServerErrorException.ServiceUnavailable.class)
            .isThrownBy(() -> restClient().get().uri("/prices").retrieve().body(String.class));

        assertThat(server.received()).hasSize(4);
        assertThat(countsSince()).containsExactlyEntriesOf(expected("error", 1));
        assertThat(this.calls.only()).satisfies((call) -> {
            assertThat(call.retries()).isEqualTo(3);
            assertThat(call.context().getError()).isInstanceOf(FailedResponseException.class);
        });
    }

    @Test
    void restClientRequestRefusedByTheOpenBreakerIsOneRejectedCall() {
        this.registry.circuitBreaker(breakerName()).transitionTo(CircuitBreakerState.FORCED_OPEN);

        assertThatExceptionOfType(CallNotPermittedException.class)
            .isThrownBy(() -> restClient().get().uri("/prices").retrieve().body(String.class));

        assertThat(server.received()).isEmpty();
        assertThat(countsSince()).containsExactlyEntriesOf(expected("rejected", 1));
        assertThat(this.calls.only().parent()).isEqualTo(CLIENT_OBSERVATION);
    }

    @Test
    void webClientRequestSucceedingAtOnceIsOneSuccessfulCall() {
        assertThat(webClient().get().uri("/prices").retrieve().bodyToMono(String.class).block(TIMEOUT)).isEqualTo("ok");

        assertThat(countsSince()).containsExactlyEntriesOf(expected("success", 1));
        assertThat(this.calls.only()).satisfies((call) -> {
            assertThat(call.tags()).containsExactlyInAnyOrder(KeyValue.of("name", NAME),
                    KeyValue.of("status", "success"), KeyValue.of("fallback", "false"));
            assertThat(call.parent()).isEqualTo(CLIENT_OBSERVATION);
            assertThat(call.retries()).isZero();
        });
    }

    @Test
    void webClientRequestSucceedingAfterTwoRetriesIsOneSuccessfulCallWhoseAttemptsSubscribeInsideIt() {
        server.replyAlways(503, 2);
        var body = webClient().get().uri("/prices").retrieve().bodyToMono(String.class).toFuture();

        passWait(this.clock, server, Duration.ofMillis(100));
        passWait(this.clock, server, Duration.ofMillis(200));

        assertThat(Mono.fromFuture(body).block(TIMEOUT)).isEqualTo("ok");
        assertThat(countsSince()).containsExactlyEntriesOf(expected("success", 1));
        RecordedCall call = this.calls.only();
        assertThat(call.retries()).isEqualTo(2);
        assertThat(call.parent()).isEqualTo(CLIENT_OBSERVATION);
        assertThat(this.attemptObservations).hasSize(3)
            .allSatisfy((current) -> assertThat(current).isSameAs(call.context()));
    }

    @Test
    void webClientRequestExhaustingItsAttemptsIsOneFailedCall() {
        server.replyAlways(503, 4);
        var body = webClient().get().uri("/prices").retrieve().bodyToMono(String.class).toFuture();

        passWait(this.clock, server, Duration.ofMillis(100));
        passWait(this.clock, server, Duration.ofMillis(200));
        passWait(this.clock, server, Duration.ofMillis(400));

        assertThatExceptionOfType(WebClientResponseException.ServiceUnavailable.class)
            .isThrownBy(() -> Mono.fromFuture(body).block(TIMEOUT));
        assertThat(countsSince()).containsExactlyEntriesOf(expected("error", 1));
        assertThat(this.calls.only()).satisfies((call) -> {
            assertThat(call.retries()).isEqualTo(3);
            assertThat(call.context().getError()).isInstanceOf(FailedResponseException.class);
        });
    }

    @Test
    void webClientRequestRefusedByTheOpenBreakerIsOneRejectedCall() {
        this.registry.circuitBreaker(breakerName()).transitionTo(CircuitBreakerState.FORCED_OPEN);

        assertThatExceptionOfType(CallNotPermittedException.class)
            .isThrownBy(() -> webClient().get().uri("/prices").retrieve().bodyToMono(String.class).block(TIMEOUT));

        assertThat(server.received()).isEmpty();
        assertThat(countsSince()).containsExactlyEntriesOf(expected("rejected", 1));
        assertThat(this.calls.only().parent()).isEqualTo(CLIENT_OBSERVATION);
    }

    @Test
    void cancelledWebClientRequestIsOneCallEndedWithAnErrorAndTheCancellation() {
        server.replyAlways(503, 1);
        Disposable subscription = webClient().get().uri("/prices").retrieve().bodyToMono(String.class).subscribe();
        await().atMost(TIMEOUT).until(() -> this.clock.pendingTasks() == 1);

        subscription.dispose();
        this.clock.advance(Duration.ofSeconds(10));

        assertThat(server.received()).hasSize(1);
        assertThat(countsSince()).containsExactlyEntriesOf(expected("error", 1));
        assertThat(this.calls.only()).satisfies((call) -> {
            assertThat(call.tags()).containsExactlyInAnyOrder(KeyValue.of("name", NAME), KeyValue.of("status", "error"),
                    KeyValue.of("fallback", "false"));
            assertThat(call.context().getError()).isInstanceOf(CancellationException.class);
            assertThat(call.retries()).isOne();
        });
    }

    @Test
    void theTimersOfRequestsHaveTheTagsOfAnnotatedCallsAndNoHost() {
        assertThat(restClient().get().uri("/prices").retrieve().body(String.class)).isEqualTo("ok");
        assertThat(webClient().get().uri("/prices").retrieve().bodyToMono(String.class).block(TIMEOUT)).isEqualTo("ok");

        assertThat(this.meters.find(CallObserver.OBSERVATION_NAME).timers()).isNotEmpty()
            .allSatisfy((timer) -> assertThat(timer.getId().getTags()).extracting(Tag::getKey)
                .containsExactlyInAnyOrder("name", "status", "fallback"));
        assertThat(countsSince()).containsExactlyEntriesOf(expected("success", 2));
    }

    private RestClient restClient() {
        return this.restClients.clone().baseUrl(server.url()).requestInterceptor((request, body, execution) -> {
            this.attemptObservations.add(current(this.observations.getCurrentObservation()));
            return execution.execute(request, body);
        }).build();
    }

    private WebClient webClient() {
        return this.webClients.clone()
            .baseUrl(server.url())
            .filter((request, next) -> Mono.deferContextual((context) -> {
                Observation observation = context.getOrDefault(ObservationThreadLocalAccessor.KEY, null);
                this.attemptObservations.add(current(observation));
                return next.exchange(request);
            }))
            .build();
    }

    private static Observation.@Nullable Context current(@Nullable Observation observation) {
        return (observation != null) ? observation.getContext() : null;
    }

    /**
     * Returns the count of each of the HTTP-client instance's call timers, by status and
     * fallback.
     */
    private Map<String, Long> counts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String status : List.of("success", "failure", "error", "timeout", "rejected")) {
            counts.put(status, count(status, "false"));
        }
        counts.put("success with fallback", count("success", "true"));
        return counts;
    }

    private long count(String status, String fallback) {
        Timer timer = this.meters.find(CallObserver.OBSERVATION_NAME)
            .tags("name", NAME, "status", status, "fallback", fallback)
            .timer();
        return (timer != null) ? timer.count() : 0;
    }

    private Map<String, Long> countsSince() {
        Map<String, Long> since = new LinkedHashMap<>();
        counts().forEach((key, count) -> since.put(key, count - this.countsBefore.get(key)));
        return since;
    }

    private static Map<String, Long> expected(String status, long count) {
        Map<String, Long> expected = new LinkedHashMap<>();
        for (String key : List.of("success", "failure", "error", "timeout", "rejected", "success with fallback")) {
            expected.put(key, key.equals(status) ? count : 0L);
        }
        return expected;
    }

    private static String breakerName() {
        return "http-client:127.0.0.1:" + server.port();
    }

    /**
     * One stopped {@code resilience.calls} observation: its context, its low-cardinality
     * keys in order, the name of its parent, and the retry events it heard.
     */
    record RecordedCall(Observation.Context context, List<KeyValue> tags, @Nullable String parent, int retries) {
    }

    /**
     * Records the {@code resilience.calls} observations that stop, with the retry events
     * each one heard.
     */
    static final class RecordedCalls implements ObservationHandler<Observation.Context> {

        private final List<RecordedCall> stopped = new CopyOnWriteArrayList<>();

        private final Map<Observation.Context, Integer> retries = new ConcurrentHashMap<>();

        @Override
        public void onEvent(Observation.Event event, Observation.Context context) {
            if (CallObserver.RETRY_EVENT.equals(event.getName())) {
                this.retries.merge(context, 1, Integer::sum);
            }
        }

        @Override
        public void onStop(Observation.Context context) {
            if (!CallObserver.OBSERVATION_NAME.equals(context.getName())) {
                return;
            }
            var parent = context.getParentObservation();
            this.stopped.add(new RecordedCall(context, context.getLowCardinalityKeyValues().stream().toList(),
                    (parent != null) ? parent.getContextView().getName() : null,
                    this.retries.getOrDefault(context, 0)));
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }

        RecordedCall only() {
            assertThat(this.stopped).as("stopped resilience.calls observations").hasSize(1);
            return this.stopped.get(0);
        }

        void clear() {
            this.stopped.clear();
            this.retries.clear();
        }

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

        @Bean
        RecordedCalls recordedCalls() {
            return new RecordedCalls();
        }

    }

}
