package dev.resilience.webflux;

import dev.resilience.aop.IdempotencyScopeResolver;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.web.IdempotencyProblemAdvice;
import dev.resilience.web.IdempotentReplayHeaderListener;
import dev.resilience.web.SwitchableIdempotencyStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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
    private SwitchableIdempotencyStore store;

    private WebTestClient client;

    @BeforeEach
    void reset() {
        this.controller.reset();
        this.store.down(false);
        this.client = WebTestClient.bindToServer().baseUrl("http://localhost:" + this.port).build();
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
    @Import(FluxOrderTestController.class)
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
