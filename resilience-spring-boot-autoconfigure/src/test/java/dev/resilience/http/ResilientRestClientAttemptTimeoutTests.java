package dev.resilience.http;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceHttpClientAutoConfiguration;
import dev.resilience.core.AttemptTimeoutException;
import dev.resilience.core.DeadlineExceededException;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * An HTTP-client attempt that outlives the retry instance's {@code attempt-timeout} is a
 * timeout whatever it returns (DESIGN section 11). Its late response holds a connection:
 * a client whose read does not react to the interrupt (HttpURLConnection, a pooled Apache
 * client reading headers) returns it after the timer fired. The interceptor must close
 * that response, or every such timeout leaks a pooled connection until the pool is
 * exhausted.
 *
 * <p>
 * The slow server is simulated on the virtual clock: an interceptor after ours moves the
 * clock past the attempt timeout once the response has arrived, which is what a slow
 * server and a non-interruptible read look like to the pipeline.
 */
class ResilientRestClientAttemptTimeoutTests {

    private static ScriptedHttpServer server;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceHttpClientAutoConfiguration.class))
        .withBean(VirtualTimeSource.class, VirtualTimeSource::new)
        .withPropertyValues("resilience.http-client.enabled=true",
                "resilience.retry.instances.http-client.max-attempts=2",
                "resilience.retry.instances.http-client.delay=100ms",
                "resilience.retry.instances.http-client.jitter=none",
                "resilience.retry.instances.http-client.attempt-timeout=1s",
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
    void lateResponseOfATimedOutAttemptIsClosed() {
        this.runner.run((context) -> {
            List<TrackedResponse> responses = new CopyOnWriteArrayList<>();
            RestClient client = client(context, responses, 1);

            catchThrowable(() -> client.get().uri(server.url() + "/prices").retrieve().body(String.class));

            assertThat(responses).isNotEmpty();
            assertThat(responses.get(0).closed).as("late response of the timed-out attempt closed").isTrue();
        });
    }

    /**
     * A GET whose attempt timed out is the textbook retry: the request is idempotent and
     * the server may just have been slow. The retry instance has two attempts.
     */
    @Test
    void timedOutGetIsRetried() {
        this.runner.run((context) -> {
            RestClient client = client(context, new CopyOnWriteArrayList<>(), 1);

            Throwable failure = catchThrowable(
                    () -> assertThat(client.get().uri(server.url() + "/prices").retrieve().body(String.class))
                        .isEqualTo("ok"));

            assertThat(failure).as("call outcome").isNull();
            assertThat(server.received()).hasSize(2);
        });
    }

    @Test
    void responseInTimeIsReturnedAfterTheLateOneWasClosed() {
        this.runner.run((context) -> {
            List<TrackedResponse> responses = new CopyOnWriteArrayList<>();
            RestClient client = client(context, responses, 1);

            assertThat(client.get().uri(server.url() + "/prices").retrieve().body(String.class)).isEqualTo("ok");

            assertThat(responses).hasSize(2);
            assertThat(responses.get(0).closed).as("late response closed").isTrue();
            assertThat(responses.get(0).read).as("late response read").isFalse();
            assertThat(responses.get(1).read).as("response in time read by the caller").isTrue();
        });
    }

    @Test
    void callEndingOnATimeoutClosesEveryResponseAndSurfacesAsAnIoErrorCausedByTheTimeout() {
        this.runner.run((context) -> {
            List<TrackedResponse> responses = new CopyOnWriteArrayList<>();
            RestClient client = client(context, responses, 2);

            assertThatExceptionOfType(ResourceAccessException.class)
                .isThrownBy(() -> client.get().uri(server.url() + "/prices").retrieve().body(String.class))
                .havingCause()
                .isInstanceOf(IOException.class)
                .withCauseInstanceOf(AttemptTimeoutException.class);
            assertThat(server.received()).hasSize(2);
            assertThat(responses).hasSize(2).allSatisfy((response) -> {
                assertThat(response.closed).as("closed").isTrue();
                assertThat(response.read).as("read").isFalse();
            });
        });
    }

    /**
     * A failed response that arrives late is a timeout too: it is closed, not returned to
     * the caller as the last response of the attempts.
     */
    @Test
    void lateServerErrorsAreClosedAndTheCallEndsOnTheTimeout() {
        this.runner.run((context) -> {
            server.replyAlways(503, 2);
            List<TrackedResponse> responses = new CopyOnWriteArrayList<>();
            RestClient client = client(context, responses, 2);

            assertThatExceptionOfType(ResourceAccessException.class)
                .isThrownBy(() -> client.get().uri(server.url() + "/prices").retrieve().body(String.class))
                .havingCause()
                .withCauseInstanceOf(AttemptTimeoutException.class);
            assertThat(responses).hasSize(2).allSatisfy((response) -> assertThat(response.closed).isTrue());
        });
    }

    @Test
    void callEndingOnItsMaxDurationSurfacesAsAnIoErrorCausedByTheDeadline() {
        this.runner.withPropertyValues("resilience.retry.instances.http-client.max-duration=1500ms").run((context) -> {
            List<TrackedResponse> responses = new CopyOnWriteArrayList<>();
            RestClient client = client(context, responses, 1);

            assertThatExceptionOfType(ResourceAccessException.class)
                .isThrownBy(() -> client.get().uri(server.url() + "/prices").retrieve().body(String.class))
                .havingCause()
                .isInstanceOf(IOException.class)
                .withCauseInstanceOf(DeadlineExceededException.class);
            assertThat(server.received()).hasSize(1);
            assertThat(responses).singleElement().satisfies((response) -> assertThat(response.closed).isTrue());
        });
    }

    @Test
    void timedOutPostWithIdempotencyKeyIsRetriedWithTheSameKey() {
        this.runner.run((context) -> {
            List<TrackedResponse> responses = new CopyOnWriteArrayList<>();
            RestClient client = client(context, responses, 1);

            String body = client.post()
                .uri(server.url() + "/orders")
                .header("Idempotency-Key", "order-7")
                .body("{\"item\":7}")
                .retrieve()
                .body(String.class);

            assertThat(body).isEqualTo("ok");
            assertThat(server.received()).extracting(ScriptedHttpServer.Received::idempotencyKey)
                .containsExactly("order-7", "order-7");
            assertThat(responses.get(0).closed).isTrue();
        });
    }

    /**
     * A client whose first {@code slowAttempts} responses arrive after the attempt
     * timeout.
     */
    private static RestClient client(AssertableApplicationContext context, List<TrackedResponse> responses,
            int slowAttempts) {
        VirtualTimeSource clock = context.getBean(VirtualTimeSource.class);
        AtomicInteger attempts = new AtomicInteger();
        RestClient.Builder builder = RestClient.builder();
        context.getBean(ResilientRestClientCustomizer.class).customize(builder);
        builder.requestInterceptor((request, body, execution) -> {
            TrackedResponse response = new TrackedResponse(execution.execute(request, body));
            responses.add(response);
            if (attempts.incrementAndGet() <= slowAttempts) {
                clock.advance(Duration.ofSeconds(2));
            }
            return response;
        });
        return builder.build();
    }

    private static final class TrackedResponse implements ClientHttpResponse {

        private final ClientHttpResponse delegate;

        private volatile boolean closed;

        private volatile boolean read;

        TrackedResponse(ClientHttpResponse delegate) {
            this.delegate = delegate;
        }

        @Override
        public HttpStatusCode getStatusCode() throws IOException {
            return this.delegate.getStatusCode();
        }

        @Override
        public String getStatusText() throws IOException {
            return this.delegate.getStatusText();
        }

        @Override
        public HttpHeaders getHeaders() {
            return this.delegate.getHeaders();
        }

        @Override
        public InputStream getBody() throws IOException {
            this.read = true;
            return this.delegate.getBody();
        }

        @Override
        public void close() {
            this.closed = true;
            this.delegate.close();
        }

    }

}
