package dev.resilience.webflux;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.resilience.aop.IdempotencyScopeResolver;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.web.IdempotencyProblemAdvice;
import dev.resilience.web.IdempotentReplayHeaderListener;
import dev.resilience.web.SwitchableIdempotencyStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Sinks;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebFlux application (Reactor Netty on a random port) whose {@code @Idempotent}
 * handlers answer as those of Spring MVC do: the same problem responses, field for field,
 * and the same replay header.
 */
@SpringBootTest(classes = WebFluxIdempotentEndpointTests.TestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.main.web-application-type=reactive")
class WebFluxIdempotentEndpointTests {

    private static final String BOOK = "{\"item\":\"book\"}";

    @LocalServerPort
    private int port;

    @Autowired
    private FluxOrderTestController controller;

    @Autowired
    private MonoOrderTestController monoController;

    @Autowired
    private SwitchableIdempotencyStore store;

    private final ExecutorService otherThread = Executors.newSingleThreadExecutor();

    private WebTestClient client;

    @BeforeEach
    void reset() {
        this.controller.reset();
        this.monoController.reset();
        this.store.down(false);
        this.client = WebTestClient.bindToServer()
            .baseUrl("http://localhost:" + this.port)
            .responseTimeout(Duration.ofSeconds(30))
            .build();
    }

    @AfterEach
    void stopOtherThread() {
        this.otherThread.shutdownNow();
    }

    @Test
    void missingKeyHeaderIsABadRequestProblemWithoutRunningTheHandler() {
        expectProblem(
                this.client.post().uri("/orders").contentType(MediaType.APPLICATION_JSON).bodyValue(BOOK).exchange(),
                400, "Bad Request", IdempotencyProblemAdvice.KEY_INVALID, "/orders")
            .jsonPath("$.detail")
            .isEqualTo("Idempotency key is missing: send it in the Idempotency-Key header");
        assertThat(this.controller.runs()).isZero();
    }

    @Test
    void emptyKeyIsABadRequestProblemWithoutRunningTheHandler() {
        expectProblem(order("/orders", "", BOOK), 400, "Bad Request", IdempotencyProblemAdvice.KEY_INVALID, "/orders")
            .jsonPath("$.detail")
            .isEqualTo("Idempotency key is empty");
        assertThat(this.controller.runs()).isZero();
    }

    @Test
    void missingHeaderOfAHandlerThatIsNotIdempotentIsLeftToWebFlux() {
        this.client.get()
            .uri("/tenants")
            .exchange()
            .expectStatus()
            .isBadRequest()
            .expectBody()
            .jsonPath("$.problem")
            .doesNotExist();
    }

    @Test
    void replayReturnsTheFirstStatusAndBodyMarkedAsReplayed() {
        byte[] first = order("/orders", "replay-1", BOOK).expectStatus()
            .isCreated()
            .expectHeader()
            .doesNotExist(IdempotentReplayHeaderListener.HEADER)
            .expectHeader()
            .valueEquals("Location", "/orders/o-1")
            .expectBody()
            .returnResult()
            .getResponseBody();

        order("/orders", "replay-1", BOOK).expectStatus()
            .isCreated()
            .expectHeader()
            .valueEquals(IdempotentReplayHeaderListener.HEADER, "true")
            .expectHeader()
            .valueEquals("Location", "/orders/o-1")
            .expectBody()
            .json(new String(first), true);
        assertThat(this.controller.runs()).isEqualTo(1);
    }

    @Test
    void monoReplayReturnsTheFirstStatusAndBodyMarkedAsReplayed() {
        byte[] first = order("/mono-orders", "mono-replay-1", BOOK).expectStatus()
            .isCreated()
            .expectHeader()
            .doesNotExist(IdempotentReplayHeaderListener.HEADER)
            .expectHeader()
            .valueEquals("Location", "/mono-orders/m-1")
            .expectBody()
            .returnResult()
            .getResponseBody();

        order("/mono-orders", "mono-replay-1", BOOK).expectStatus()
            .isCreated()
            .expectHeader()
            .valueEquals(IdempotentReplayHeaderListener.HEADER, "true")
            .expectHeader()
            .valueEquals("Location", "/mono-orders/m-1")
            .expectBody()
            .json(new String(first), true);
        assertThat(this.monoController.runs()).isEqualTo(1);
    }

    @Test
    void monoKeyWhoseFirstRequestIsStillRunningIsAConflictWithRetryAfterTheLease() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        Sinks.Empty<Void> release = Sinks.empty();
        this.monoController.holdNextRequest(entered, release);
        CompletableFuture<Integer> first = CompletableFuture.supplyAsync(
                () -> order("/mono-orders", "mono-in-progress-1", BOOK).returnResult(String.class).getStatus().value(),
                this.otherThread);
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();

        expectProblem(order("/mono-orders", "mono-in-progress-1", BOOK).expectHeader().valueEquals("Retry-After", "60"),
                409, "Conflict", IdempotencyProblemAdvice.KEY_IN_PROGRESS, "/mono-orders")
            .jsonPath("$.detail")
            .isEqualTo("A request with this idempotency key is still being processed; "
                    + "retry after 60 seconds to receive its response");

        release.tryEmitEmpty();
        assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(201);
        assertThat(this.monoController.runs()).isEqualTo(1);
    }

    @Test
    void monoKeyReusedWithAnotherBodyIsUnprocessable() {
        order("/mono-orders", "mono-mismatch-1", BOOK).expectStatus().isCreated();

        expectProblem(order("/mono-orders", "mono-mismatch-1", "{\"item\":\"lamp\"}"), 422, "Unprocessable Content",
                IdempotencyProblemAdvice.KEY_MISMATCH, "/mono-orders");
        assertThat(this.monoController.runs()).isEqualTo(1);
    }

    @Test
    void monoHandlerWithoutKeyIsABadRequestProblemWithoutRunningIt() {
        expectProblem(this.client.post()
            .uri("/mono-orders")
            .contentType(MediaType.APPLICATION_JSON)
            .bodyValue(BOOK)
            .exchange(), 400, "Bad Request", IdempotencyProblemAdvice.KEY_INVALID, "/mono-orders");
        assertThat(this.monoController.runs()).isZero();
    }

    @Test
    void plainHandlerWithoutTheExchangeReplaysWithoutTheHeader() {
        order("/plain-orders", "plain-1", BOOK).expectStatus().isCreated();

        order("/plain-orders", "plain-1", BOOK).expectStatus()
            .isCreated()
            .expectHeader()
            .doesNotExist(IdempotentReplayHeaderListener.HEADER)
            .expectBody()
            .jsonPath("$.id")
            .isEqualTo("p-1");
        assertThat(this.controller.runs()).isEqualTo(1);
    }

    @Test
    void keyReusedWithAnotherBodyIsUnprocessable() {
        order("/orders", "mismatch-1", BOOK).expectStatus().isCreated();

        expectProblem(order("/orders", "mismatch-1", "{\"item\":\"lamp\"}"), 422, "Unprocessable Content",
                IdempotencyProblemAdvice.KEY_MISMATCH, "/orders")
            .jsonPath("$.detail")
            .isEqualTo("This idempotency key was already used with another request payload; "
                    + "use a new key for a new request");
        assertThat(this.controller.runs()).isEqualTo(1);
    }

    @Test
    void unreachableStoreIsServiceUnavailableWithoutRunningTheHandler() {
        this.store.down(true);

        expectProblem(order("/orders", "store-down-1", BOOK).expectHeader().valueEquals("Retry-After", "5"), 503,
                "Service Unavailable", IdempotencyProblemAdvice.STORE_UNAVAILABLE, "/orders")
            .jsonPath("$.detail")
            .isEqualTo("The request was not processed because its idempotency key could not be checked; retry later");
        assertThat(this.controller.runs()).isZero();
    }

    private WebTestClient.ResponseSpec order(String path, String key, String body) {
        return this.client.post()
            .uri(path)
            .header("Idempotency-Key", key)
            .contentType(MediaType.APPLICATION_JSON)
            .bodyValue(body)
            .exchange();
    }

    private static WebTestClient.BodyContentSpec expectProblem(WebTestClient.ResponseSpec response, int status,
            String title, String problem, String instance) {
        return response.expectStatus()
            .isEqualTo(status)
            .expectHeader()
            .contentType(MediaType.APPLICATION_PROBLEM_JSON)
            .expectBody()
            .jsonPath("$.type")
            .doesNotExist()
            .jsonPath("$.title")
            .isEqualTo(title)
            .jsonPath("$.status")
            .isEqualTo(status)
            .jsonPath("$.instance")
            .isEqualTo(instance)
            .jsonPath("$.problem")
            .isEqualTo(problem);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ FluxOrderTestController.class, MonoOrderTestController.class })
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

        /**
         * Scopes no key, as an application without Spring Security does: the handlers
         * returning a plain value run on the event loop, where Spring Security's caller
         * cannot be read.
         */
        @Bean
        IdempotencyScopeResolver idempotencyScopeResolver() {
            return IdempotencyScopeResolver.NONE;
        }

        @Bean
        SwitchableIdempotencyStore idempotencyStore(VirtualTimeSource timeSource) {
            return new SwitchableIdempotencyStore(new InMemoryIdempotencyStore(timeSource, 1000));
        }

    }

}
