package dev.resilience.web;

import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Over the real MVC stack, the first caller gets its session cookie and credentials, and
 * a replay gets the stored status, body and content headers without them.
 */
@SpringBootTest(classes = ReplayedCredentialsTests.TestApplication.class)
@AutoConfigureMockMvc
class ReplayedCredentialsTests {

    @Autowired
    private MockMvc mvc;

    @Autowired
    private SessionController controller;

    @Test
    void replayHasNoSetCookieNorCredentialsButKeepsLocationAndContentType() throws Exception {
        this.mvc.perform(post("/sessions").header("Idempotency-Key", "login-1"))
            .andExpect(status().isCreated())
            .andExpect(header().string(HttpHeaders.SET_COOKIE, "SESSION=s3cr3t; HttpOnly"))
            .andExpect(header().string(HttpHeaders.AUTHORIZATION, "Bearer t0ken"))
            .andExpect(header().string(HttpHeaders.LOCATION, "/sessions/1"));

        this.mvc.perform(post("/sessions").header("Idempotency-Key", "login-1"))
            .andExpect(status().isCreated())
            .andExpect(header().string(IdempotentReplayHeaderListener.HEADER, "true"))
            .andExpect(header().doesNotExist(HttpHeaders.SET_COOKIE))
            .andExpect(header().doesNotExist(HttpHeaders.AUTHORIZATION))
            .andExpect(header().doesNotExist(HttpHeaders.WWW_AUTHENTICATE))
            .andExpect(header().string(HttpHeaders.LOCATION, "/sessions/1"))
            .andExpect(header().string(HttpHeaders.ETAG, "\"v1\""))
            .andExpect(header().string("X-Session-Count", "1"))
            .andExpect(content().contentType(MediaType.APPLICATION_JSON))
            .andExpect(content().json("{\"session\":1}"));
        assertThat(this.controller.runs()).isOne();
    }

    @RestController
    static class SessionController {

        private final AtomicInteger runs = new AtomicInteger();

        public int runs() {
            return this.runs.get();
        }

        @PostMapping("/sessions")
        @Idempotent(key = "#key")
        public ResponseEntity<String> login(@RequestHeader("Idempotency-Key") String key) {
            this.runs.incrementAndGet();
            return ResponseEntity.created(URI.create("/sessions/1"))
                .contentType(MediaType.APPLICATION_JSON)
                .eTag("\"v1\"")
                .header(HttpHeaders.SET_COOKIE, "SESSION=s3cr3t; HttpOnly")
                .header(HttpHeaders.AUTHORIZATION, "Bearer t0ken")
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"api\"")
                .header("X-Session-Count", "1")
                .body("{\"session\":1}");
        }

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(SessionController.class)
    static class TestApplication {

    }

}
