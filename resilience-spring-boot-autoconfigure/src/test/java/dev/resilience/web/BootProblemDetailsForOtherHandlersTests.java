package dev.resilience.web;

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
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * With {@code spring.mvc.problemdetails.enabled=true}, Boot answers a missing request header
 * with an RFC 9457 problem. DESIGN section 16: every 400 that is not an idempotency failure
 * "reaches the application's own handlers and Boot's problem details". The starter's advice,
 * first in order, catches the {@code MissingRequestHeaderException} of every handler and
 * rethrows it for handlers that are not idempotent, after which Spring MVC skips Boot's
 * {@code ProblemDetailsExceptionHandler} and answers with a bare error instead.
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
            .andExpect(jsonPath("$.detail").value("Required header 'X-Region' is not present."));
    }

    @RestController
    static class RegionController {

        @GetMapping("/region")
        String region(@RequestHeader("X-Region") String region) {
            return region;
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
