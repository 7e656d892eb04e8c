package dev.resilience.web;

import java.time.Duration;

import dev.resilience.core.idempotency.IdempotencyStoreException;
import dev.resilience.core.ratelimiter.RateLimitedException;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The starter's problem advice answers its exceptions when they escape a controller as
 * they are, before an application's catch-all advice, and leaves to the application an
 * exception of its own that carries one as its cause, and one a controller answers
 * itself.
 */
@SpringBootTest(classes = ProblemAdviceExceptionResolverTests.TestApplication.class)
@AutoConfigureMockMvc
class ProblemAdviceExceptionResolverTests {

    @Autowired
    private MockMvc mvc;

    @Test
    void applicationExceptionCausedByAnIdempotencyStoreFailureIsAnsweredByTheApplicationsOwnHandler() throws Exception {
        this.mvc.perform(get("/ledger/wrapped-store-failure"))
            .andExpect(status().isBadGateway())
            .andExpect(header().doesNotExist(HttpHeaders.RETRY_AFTER))
            .andExpect(content().string("ledger failed"));
    }

    @Test
    void idempotencyStoreFailureAsItIsIsTheStartersProblemBeforeACatchAllAdvice() throws Exception {
        this.mvc.perform(get("/ledger/store-failure"))
            .andExpect(status().isServiceUnavailable())
            .andExpect(header().string(HttpHeaders.RETRY_AFTER, "5"))
            .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
            .andExpect(jsonPath("$.problem").value(IdempotencyProblemAdvice.STORE_UNAVAILABLE))
            .andExpect(jsonPath("$.instance").value("/ledger/store-failure"));
    }

    @Test
    void rateLimitAsItIsIsTheStartersProblemBeforeACatchAllAdvice() throws Exception {
        this.mvc.perform(get("/ledger/rate-limited"))
            .andExpect(status().isTooManyRequests())
            .andExpect(header().string(HttpHeaders.RETRY_AFTER, "30"))
            .andExpect(jsonPath("$.problem").value(CapacityProblemAdvice.RATE_LIMITED));
    }

    @Test
    void applicationExceptionThatTheApplicationDoesNotAnswerOtherwiseReachesItsCatchAllAdvice() throws Exception {
        this.mvc.perform(get("/ledger/unanswered-wrapped-rate-limit"))
            .andExpect(status().isInternalServerError())
            .andExpect(header().doesNotExist(HttpHeaders.RETRY_AFTER))
            .andExpect(content().string("caught IllegalStateException"));
    }

    @Test
    void controllerThatAnswersARateLimitItselfKeepsItsAnswer() throws Exception {
        this.mvc.perform(get("/quotes/rate-limited"))
            .andExpect(status().isOk())
            .andExpect(content().string("cached quote"));
    }

    static class LedgerFailedException extends RuntimeException {

        LedgerFailedException(Throwable cause) {
            super("ledger failed", cause);
        }

    }

    @RestController
    static class LedgerController {

        @GetMapping("/ledger/wrapped-store-failure")
        String wrappedStoreFailure() {
            throw new LedgerFailedException(new IdempotencyStoreException("Redis down"));
        }

        @GetMapping("/ledger/store-failure")
        String storeFailure() {
            throw new IdempotencyStoreException("Redis down");
        }

        @GetMapping("/ledger/rate-limited")
        String rateLimited() {
            throw new RateLimitedException("ledger", Duration.ofSeconds(30));
        }

        @GetMapping("/ledger/unanswered-wrapped-rate-limit")
        String unansweredWrappedRateLimit() {
            throw new IllegalStateException("no ledger", new RateLimitedException("ledger", Duration.ofSeconds(30)));
        }

    }

    @RestController
    static class QuoteController {

        @GetMapping("/quotes/rate-limited")
        String rateLimited() {
            throw new RateLimitedException("quotes", Duration.ofSeconds(30));
        }

        @ExceptionHandler
        ResponseEntity<String> rateLimited(RateLimitedException ex) {
            return ResponseEntity.ok("cached quote");
        }

    }

    @RestControllerAdvice
    static class ApplicationAdvice {

        @ExceptionHandler
        ResponseEntity<String> ledgerFailed(LedgerFailedException ex) {
            return ResponseEntity.status(HttpStatus.BAD_GATEWAY).body(ex.getMessage());
        }

        @ExceptionHandler
        ResponseEntity<String> anyOther(Exception ex) {
            return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR)
                .body("caught " + ex.getClass().getSimpleName());
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
        LedgerController ledgerController() {
            return new LedgerController();
        }

        @Bean
        QuoteController quoteController() {
            return new QuoteController();
        }

        @Bean
        ApplicationAdvice applicationAdvice() {
            return new ApplicationAdvice();
        }

    }

}
