package dev.resilience.web;

import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.BeforeEach;
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
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Review of {@link IdempotencyKeyHeaderInterceptor}, which replaced the advice's handling
 * of a missing {@code Idempotency-Key} header (DESIGN section 7: "400 for a missing or
 * bad key"): the interceptor must find the key's header wherever Spring MVC finds it, and
 * must name the header Spring MVC reads.
 */
@SpringBootTest(classes = IdempotencyKeyHeaderGapsTests.TestApplication.class,
        properties = { "spring.mvc.problemdetails.enabled=true", "parcels.key-header=Idempotency-Key" })
@AutoConfigureMockMvc
class IdempotencyKeyHeaderGapsTests {

    @Autowired
    private MockMvc mvc;

    @Autowired
    private ApiParcelController apiController;

    @Autowired
    private ConfiguredHeaderController configuredController;

    @BeforeEach
    void reset() {
        this.apiController.reset();
        this.configuredController.reset();
    }

    /**
     * Controllers generated from OpenAPI ({@code interfaceOnly}) declare
     * {@code @RequestHeader} on the interface; Spring MVC reads it there. An interceptor
     * that read the parameter annotations of the implementing method only let the request
     * through to Boot's generic 400.
     */
    @Test
    void missingKeyHeaderDeclaredOnTheControllerInterfaceIsTheKeyProblem() throws Exception {
        this.mvc.perform(post("/api-parcels"))
            .andExpect(status().isBadRequest())
            .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
            .andExpect(jsonPath("$.problem").value(IdempotencyProblemAdvice.KEY_INVALID));
        assertThat(this.apiController.runs()).isZero();
    }

    /**
     * Spring MVC resolves placeholders in a {@code @RequestHeader} name. An interceptor
     * that looked for a header literally named {@code ${parcels.key-header}}, which no
     * request has, refused every request to the handler, key included.
     */
    @Test
    void keyHeaderNamedByAPlaceholderIsReadAsSpringMvcReadsIt() throws Exception {
        this.mvc.perform(post("/configured-parcels").header("Idempotency-Key", "k-1")).andExpect(status().isCreated());
        assertThat(this.configuredController.runs()).isOne();
    }

    interface ParcelsApi {

        @PostMapping("/api-parcels")
        @ResponseStatus(HttpStatus.CREATED)
        String send(@RequestHeader("Idempotency-Key") String idempotencyKey);

    }

    @RestController
    static class ApiParcelController implements ParcelsApi {

        private final AtomicInteger runs = new AtomicInteger();

        @Override
        @Idempotent(key = "#idempotencyKey")
        public String send(String idempotencyKey) {
            return "parcel-" + this.runs.incrementAndGet();
        }

        public int runs() {
            return this.runs.get();
        }

        public void reset() {
            this.runs.set(0);
        }

    }

    @RestController
    static class ConfiguredHeaderController {

        private final AtomicInteger runs = new AtomicInteger();

        @PostMapping("/configured-parcels")
        @ResponseStatus(HttpStatus.CREATED)
        @Idempotent(key = "#key")
        public String send(@RequestHeader("${parcels.key-header}") String key) {
            return "parcel-" + this.runs.incrementAndGet();
        }

        public int runs() {
            return this.runs.get();
        }

        public void reset() {
            this.runs.set(0);
        }

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ ApiParcelController.class, ConfiguredHeaderController.class })
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

    }

}
