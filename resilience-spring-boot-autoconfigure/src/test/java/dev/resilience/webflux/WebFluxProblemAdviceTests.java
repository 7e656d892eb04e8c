package dev.resilience.webflux;

import java.util.Map;

import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.RateLimited;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.web.CapacityProblemAdvice;
import dev.resilience.web.IdempotencyProblemAdvice;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.server.MissingRequestValueException;

/**
 * In a WebFlux application with a catch-all advice of its own, a rate limiter's refusal
 * answers 429 with {@code Retry-After}, a full bulkhead's 503 and a missing idempotency
 * key 400, each the problem Spring MVC answers, while every other exception, a missing
 * header of a handler that is not idempotent among them, reaches the application's
 * advice.
 */
@SpringBootTest(classes = WebFluxProblemAdviceTests.TestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.main.web-application-type=reactive")
class WebFluxProblemAdviceTests {

    @LocalServerPort
    private int port;

    private WebTestClient client;

    @BeforeEach
    void client() {
        this.client = WebTestClient.bindToServer().baseUrl("http://localhost:" + this.port).build();
    }

    @Test
    void rateLimitedHandlerAnswers429WithRetryAfterBeforeTheApplicationsCatchAll() {
        this.client.get().uri("/quotes/EUR").exchange().expectStatus().isOk();
        this.client.get().uri("/quotes/EUR").exchange().expectStatus().isOk();

        this.client.get()
            .uri("/quotes/EUR")
            .exchange()
            .expectStatus()
            .isEqualTo(429)
            .expectHeader()
            .valueEquals(HttpHeaders.RETRY_AFTER, "1")
            .expectHeader()
            .contentType(MediaType.APPLICATION_PROBLEM_JSON)
            .expectBody()
            .jsonPath("$.status")
            .isEqualTo(429)
            .jsonPath("$.title")
            .isEqualTo("Too Many Requests")
            .jsonPath("$.problem")
            .isEqualTo(CapacityProblemAdvice.RATE_LIMITED)
            .jsonPath("$.detail")
            .isEqualTo("Too many requests; retry after 1 second")
            .jsonPath("$.instance")
            .isEqualTo("/quotes/EUR")
            .jsonPath("$.caughtBy")
            .doesNotExist();
    }

    @Test
    void fullBulkheadAnswers503WithoutRetryAfter() {
        this.client.get()
            .uri("/stock")
            .exchange()
            .expectStatus()
            .isEqualTo(503)
            .expectHeader()
            .doesNotExist(HttpHeaders.RETRY_AFTER)
            .expectHeader()
            .contentType(MediaType.APPLICATION_PROBLEM_JSON)
            .expectBody()
            .jsonPath("$.problem")
            .isEqualTo(CapacityProblemAdvice.BULKHEAD_FULL)
            .jsonPath("$.detail")
            .isEqualTo("Too many requests are being processed at once; retry later");
    }

    @Test
    void missingKeyOfAnIdempotentHandlerIsTheStartersProblem() {
        this.client.post()
            .uri("/tenants")
            .exchange()
            .expectStatus()
            .isBadRequest()
            .expectHeader()
            .contentType(MediaType.APPLICATION_PROBLEM_JSON)
            .expectBody()
            .jsonPath("$.problem")
            .isEqualTo(IdempotencyProblemAdvice.KEY_INVALID)
            .jsonPath("$.caughtBy")
            .doesNotExist();
    }

    @Test
    void applicationsOwnHandlerAnswersAMissingHeaderOfAHandlerThatIsNotIdempotent() {
        this.client.get()
            .uri("/tenant")
            .exchange()
            .expectStatus()
            .isBadRequest()
            .expectBody()
            .jsonPath("$.caughtBy")
            .isEqualTo("MissingRequestValueException");
    }

    @RestController
    static class QuoteController {

        @RateLimited(name = "quotes-api", limit = 2, period = "1s")
        @GetMapping("/quotes/{currency}")
        public String quote(@PathVariable String currency) {
            return "quote " + currency;
        }

        @GetMapping("/stock")
        public String stock() {
            throw new BulkheadFullException("stock", 4);
        }

        @GetMapping("/tenant")
        public String tenant(@RequestHeader("X-Tenant") String tenant) {
            return tenant;
        }

        @PostMapping("/tenants")
        @Idempotent(key = "#key")
        public String create(@RequestHeader("Idempotency-Key") String key) {
            return key;
        }

    }

    @RestControllerAdvice
    static class CatchAllAdvice {

        @ExceptionHandler
        ResponseEntity<Map<String, String>> any(Exception ex) {
            HttpStatus status = (ex instanceof MissingRequestValueException) ? HttpStatus.BAD_REQUEST
                    : HttpStatus.INTERNAL_SERVER_ERROR;
            return ResponseEntity.status(status).body(Map.of("caughtBy", ex.getClass().getSimpleName()));
        }

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ QuoteController.class, CatchAllAdvice.class })
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

    }

}
