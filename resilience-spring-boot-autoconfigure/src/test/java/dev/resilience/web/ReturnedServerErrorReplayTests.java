package dev.resilience.web;

import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * DESIGN section 16, documented behaviour: a 5xx response that an {@code @Idempotent}
 * handler returns (not throws) is a result like any other, as with Stripe: it is stored
 * and replayed with its status, marked {@code Idempotent-Replayed: true}, until the key's
 * {@code ttl}; the handler does not run again for the key. A handler that wants a retry
 * with the same key to run again throws instead, which releases the key.
 */
@SpringBootTest(classes = ReturnedServerErrorReplayTests.TestApplication.class)
@AutoConfigureMockMvc
class ReturnedServerErrorReplayTests {

    @Autowired
    private MockMvc mvc;

    @Autowired
    private TransferController controller;

    @Test
    void returnedServiceUnavailableIsStoredAndReplayedWithItsStatus() throws Exception {
        this.mvc.perform(post("/transfers").header("Idempotency-Key", "transfer-1"))
            .andExpect(status().isServiceUnavailable())
            .andExpect(header().doesNotExist(IdempotentReplayHeaderListener.HEADER))
            .andExpect(jsonPath("$.outcome").value("bank unavailable, attempt 1"));

        this.mvc.perform(post("/transfers").header("Idempotency-Key", "transfer-1"))
            .andExpect(status().isServiceUnavailable())
            .andExpect(header().string(IdempotentReplayHeaderListener.HEADER, "true"))
            .andExpect(jsonPath("$.outcome").value("bank unavailable, attempt 1"));
        assertThat(this.controller.runs()).isEqualTo(1);
    }

    @RestController
    static class TransferController {

        private final AtomicInteger runs = new AtomicInteger();

        @PostMapping("/transfers")
        @Idempotent(key = "#key")
        public ResponseEntity<Outcome> transfer(@RequestHeader("Idempotency-Key") String key) {
            int run = this.runs.incrementAndGet();
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .body(new Outcome("bank unavailable, attempt " + run));
        }

        int runs() {
            return this.runs.get();
        }

    }

    /** What a transfer request came to. */
    record Outcome(String outcome) {
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(TransferController.class)
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

    }

}
