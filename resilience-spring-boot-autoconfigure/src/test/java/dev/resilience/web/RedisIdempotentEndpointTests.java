package dev.resilience.web;

import dev.resilience.redis.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Idempotent endpoints over HTTP with the Redis store.
 */
@SpringBootTest(classes = RedisIdempotentEndpointTests.TestApplication.class,
        properties = { "resilience.idempotency.store=redis", "management.health.redis.enabled=false" })
@AutoConfigureMockMvc
class RedisIdempotentEndpointTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @Autowired
    private MockMvc mvc;

    @Autowired
    private ReceiptTestController controller;

    @DynamicPropertySource
    static void redisProperties(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.host", () -> "127.0.0.1");
        registry.add("spring.data.redis.port", redis::port);
    }

    @Test
    void responseThatCannotBeStoredIsSentOnceThenItsKeyIsAConflictThatNeverRunsTheHandlerAgain() throws Exception {
        this.mvc.perform(post("/receipts").header("Idempotency-Key", "receipt-1"))
            .andExpect(status().isOk())
            .andExpect(content().contentType(MediaType.APPLICATION_PDF))
            .andExpect(content().string("%PDF receipt 1"));

        for (int i = 0; i < 2; i++) {
            this.mvc.perform(post("/receipts").header("Idempotency-Key", "receipt-1"))
                .andExpect(status().isConflict())
                .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(header().doesNotExist("Retry-After"))
                .andExpect(header().doesNotExist(IdempotentReplayHeaderListener.HEADER))
                .andExpect(jsonPath("$.type").doesNotExist())
                .andExpect(jsonPath("$.title").value("Conflict"))
                .andExpect(jsonPath("$.status").value(409))
                .andExpect(jsonPath("$.instance").value("/receipts"))
                .andExpect(jsonPath("$.problem").value("idempotency-result-unavailable"))
                .andExpect(jsonPath("$.detail").value("A request with this idempotency key was already processed, "
                        + "but its response cannot be replayed; the request is not processed again with this key"));
        }
        assertThat(this.controller.runs()).isOne();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(ReceiptTestController.class)
    static class TestApplication {

    }

}
