package dev.resilience.web;

import java.util.Map;

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
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * DESIGN section 16: "The idempotency advice handles only failures of @Idempotent
 * handlers; every other 400 reaches the application's own handlers and Boot's problem
 * details." The starter's advice once declared an {@code @ExceptionHandler} for every
 * {@link MissingRequestHeaderException}, first in order, and rethrew it for handlers that
 * are not idempotent; Spring MVC does not go on to the next advice after a rethrow, so
 * the application's own handler never answered. An {@code @Idempotent} handler's missing
 * key stays the starter's problem, whatever handlers the application has.
 */
@SpringBootTest(classes = ApplicationExceptionHandlersTests.TestApplication.class)
@AutoConfigureMockMvc
class ApplicationExceptionHandlersTests {

    @Autowired
    private MockMvc mvc;

    @Test
    void applicationsOwnHandlerAnswersAMissingHeaderOfAHandlerThatIsNotIdempotent() throws Exception {
        this.mvc.perform(get("/tenant"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.error").value("missing header X-Tenant"));
    }

    @Test
    void missingKeyOfAnIdempotentHandlerIsStillTheStartersProblem() throws Exception {
        this.mvc.perform(post("/tenants"))
            .andExpect(status().isBadRequest())
            .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
            .andExpect(jsonPath("$.error").doesNotExist())
            .andExpect(jsonPath("$.problem").value(IdempotencyProblemAdvice.KEY_INVALID));
    }

    @RestController
    static class TenantController {

        @GetMapping("/tenant")
        String tenant(@RequestHeader("X-Tenant") String tenant) {
            return tenant;
        }

        @PostMapping("/tenants")
        @Idempotent(key = "#key")
        public String create(@RequestHeader("Idempotency-Key") String key) {
            return key;
        }

    }

    @RestControllerAdvice
    static class ApplicationAdvice {

        @ExceptionHandler
        ResponseEntity<Map<String, String>> missingHeader(MissingRequestHeaderException ex) {
            return ResponseEntity.status(HttpStatus.BAD_REQUEST)
                .body(Map.of("error", "missing header " + ex.getHeaderName()));
        }

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ TenantController.class, ApplicationAdvice.class })
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

    }

}
