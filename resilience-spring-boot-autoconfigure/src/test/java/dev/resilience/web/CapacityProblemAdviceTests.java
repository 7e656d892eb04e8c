package dev.resilience.web;

import java.time.Duration;

import dev.resilience.annotation.RateLimited;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A rate limiter's refusal escaping a controller answers 429 with {@code Retry-After}, a
 * full bulkhead's answers 503, both as RFC 9457 problems.
 */
@SpringBootTest(classes = CapacityProblemAdviceTests.TestApplication.class)
@AutoConfigureMockMvc
class CapacityProblemAdviceTests {

    @Autowired
    private MockMvc mvc;

    @Test
    void rateLimitedHandlerAnswers429WithRetryAfterInWholeSecondsRoundedUp() throws Exception {
        this.mvc.perform(get("/quotes/EUR")).andExpect(status().isOk());
        this.mvc.perform(get("/quotes/EUR")).andExpect(status().isOk());

        this.mvc.perform(get("/quotes/EUR"))
            .andExpect(status().isTooManyRequests())
            .andExpect(header().string(HttpHeaders.RETRY_AFTER, "1"))
            .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
            .andExpect(jsonPath("$.status").value(429))
            .andExpect(jsonPath("$.title").value("Too Many Requests"))
            .andExpect(jsonPath("$.problem").value(CapacityProblemAdvice.RATE_LIMITED))
            .andExpect(jsonPath("$.detail").value("Too many requests; retry after 1 second"))
            .andExpect(jsonPath("$.instance").value("/quotes/EUR"));
    }

    @Test
    void fullBulkheadAnswers503WithoutRetryAfter() throws Exception {
        this.mvc.perform(get("/stock"))
            .andExpect(status().isServiceUnavailable())
            .andExpect(header().doesNotExist(HttpHeaders.RETRY_AFTER))
            .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
            .andExpect(jsonPath("$.problem").value(CapacityProblemAdvice.BULKHEAD_FULL))
            .andExpect(jsonPath("$.detail").value("Too many requests are being processed at once; retry later"));
    }

    @Test
    void retryAfterIsTheWaitRoundedUpToWholeSecondsAndAtLeastOne() {
        assertThat(CapacityProblemAdvice.retryAfterSeconds(Duration.ofMillis(200))).isOne();
        assertThat(CapacityProblemAdvice.retryAfterSeconds(Duration.ZERO)).isOne();
        assertThat(CapacityProblemAdvice.retryAfterSeconds(Duration.ofSeconds(2))).isEqualTo(2);
        assertThat(CapacityProblemAdvice.retryAfterSeconds(Duration.ofMillis(2001))).isEqualTo(3);
        assertThat(CapacityProblemAdvice.retryAfterSeconds(Duration.ofNanos(1))).isOne();
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

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

        @Bean
        QuoteController quoteController() {
            return new QuoteController();
        }

    }

}
