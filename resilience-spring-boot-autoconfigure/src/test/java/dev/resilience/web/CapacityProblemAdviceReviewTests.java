package dev.resilience.web;

import java.time.Duration;

import dev.resilience.core.bulkhead.BulkheadFullException;
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
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The capacity advice answers the refusals that escape a controller (README: "a
 * {@code RateLimitedException} escaping a controller answers 429"), and stays in its lane
 * as DESIGN section 16 asks of the web support: an application exception that merely
 * carries a refusal as its cause is the application's to answer, with its own handler.
 * Spring MVC matches an advice's handlers against the causes too, and this advice is
 * ordered first, so it must not declare a match it would answer for a wrapper.
 */
@SpringBootTest(classes = CapacityProblemAdviceReviewTests.TestApplication.class)
@AutoConfigureMockMvc
class CapacityProblemAdviceReviewTests {

    @Autowired
    private MockMvc mvc;

    /**
     * An application exception caused by a rate limit is answered by the application's
     * handler.
     */
    @Test
    void applicationExceptionCausedByARateLimitIsAnsweredByTheApplicationsOwnHandler() throws Exception {
        this.mvc.perform(get("/orders/rate-limited"))
            .andExpect(status().isBadGateway())
            .andExpect(header().doesNotExist(HttpHeaders.RETRY_AFTER))
            .andExpect(content().string("order failed"));
    }

    /**
     * An application exception caused by a full bulkhead is answered by the application's
     * handler.
     */
    @Test
    void applicationExceptionCausedByAFullBulkheadIsAnsweredByTheApplicationsOwnHandler() throws Exception {
        this.mvc.perform(get("/orders/bulkhead-full"))
            .andExpect(status().isBadGateway())
            .andExpect(content().string("order failed"));
    }

    /**
     * Retry-After is the wait rounded up to whole seconds: a wait beyond what a long
     * holds in seconds saturates instead of wrapping around to the one-second floor.
     */
    @Test
    void retryAfterOfTheLongestWaitSaturatesInsteadOfOverflowingToOneSecond() {
        assertThat(CapacityProblemAdvice.retryAfterSeconds(Duration.ofSeconds(Long.MAX_VALUE, 1)))
            .isEqualTo(Long.MAX_VALUE);
    }

    static class OrderFailedException extends RuntimeException {

        OrderFailedException(Throwable cause) {
            super("order failed", cause);
        }

    }

    @RestController
    static class OrderController {

        @GetMapping("/orders/rate-limited")
        public String rateLimited() {
            throw new OrderFailedException(new RateLimitedException("partner-api", Duration.ofSeconds(30)));
        }

        @GetMapping("/orders/bulkhead-full")
        public String bulkheadFull() {
            throw new OrderFailedException(new BulkheadFullException("partner-api", 4));
        }

    }

    @RestControllerAdvice
    static class OrderAdvice {

        @ExceptionHandler
        ResponseEntity<String> orderFailed(OrderFailedException ex) {
            return ResponseEntity.status(HttpStatus.BAD_GATEWAY).body(ex.getMessage());
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
        OrderController orderController() {
            return new OrderController();
        }

        @Bean
        OrderAdvice orderAdvice() {
            return new OrderAdvice();
        }

    }

}
