package dev.resilience.web;

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
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * With {@code spring.mvc.problemdetails.enabled=true}, Boot answers a missing request
 * header with an RFC 9457 problem. DESIGN section 16: every 400 that is not an
 * idempotency failure "reaches the application's own handlers and Boot's problem
 * details", while an {@code @Idempotent} handler's missing key is still the starter's
 * problem. The starter's advice once caught the {@code MissingRequestHeaderException} of
 * every handler, first in order, and Boot's {@code ProblemDetailsExceptionHandler} never
 * answered it.
 */
@SpringBootTest(classes = BootProblemDetailsForOtherHandlersTests.TestApplication.class,
        properties = "spring.mvc.problemdetails.enabled=true")
@AutoConfigureMockMvc
class BootProblemDetailsForOtherHandlersTests {

    @Autowired
    private MockMvc mvc;

    @Test
    void missingHeaderOfAHandlerThatIsNotIdempotentIsBootsProblemDetail() throws Exception {
        this.mvc.perform(get("/region"))
            .andExpect(status().isBadRequest())
            .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
            .andExpect(jsonPath("$.title").value("Bad Request"))
            .andExpect(jsonPath("$.status").value(400))
            .andExpect(jsonPath("$.detail").value("Required header 'X-Region' is not present."))
            .andExpect(jsonPath("$.instance").value("/region"))
            .andExpect(jsonPath("$.problem").doesNotExist());
    }

    @Test
    void missingKeyOfAnIdempotentHandlerIsStillTheStartersProblem() throws Exception {
        this.mvc.perform(post("/regions"))
            .andExpect(status().isBadRequest())
            .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
            .andExpect(jsonPath("$.title").value("Bad Request"))
            .andExpect(jsonPath("$.status").value(400))
            .andExpect(jsonPath("$.detail").value("Idempotency key is missing: send it in the Idempotency-Key header"))
            .andExpect(jsonPath("$.problem").value(IdempotencyProblemAdvice.KEY_INVALID));
    }

    @RestController
    static class RegionController {

        @GetMapping("/region")
        String region(@RequestHeader("X-Region") String region) {
            return region;
        }

        @PostMapping("/regions")
        @Idempotent(key = "#key")
        public String create(@RequestHeader("Idempotency-Key") String key) {
            return key;
        }

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(RegionController.class)
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

    }

}
