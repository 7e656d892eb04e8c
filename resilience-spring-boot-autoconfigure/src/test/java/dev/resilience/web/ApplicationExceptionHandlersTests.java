package dev.resilience.web;

import java.util.Map;

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
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * DESIGN section 16: "The idempotency advice handles only failures of @Idempotent handlers;
 * every other 400 reaches the application's own handlers and Boot's problem details."
 * {@link IdempotencyProblemAdvice} declares an {@code @ExceptionHandler} for every
 * {@link MissingRequestHeaderException} and is ordered first; for a handler that is not
 * idempotent it rethrows. Spring MVC does not go on to the next advice after a rethrow: it
 * falls back to {@code DefaultHandlerExceptionResolver}, so the application's own
 * {@code @ExceptionHandler(MissingRequestHeaderException.class)} never answers again once the
 * starter is on the classpath.
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

    @RestController
    static class TenantController {

        @GetMapping("/tenant")
        String tenant(@RequestHeader("X-Tenant") String tenant) {
            return tenant;
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
