package dev.resilience.web;

import java.util.UUID;
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
import org.springframework.test.web.servlet.ResultActions;
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
 * The headers an {@code @Idempotent} handler's key is made of are refused with the
 * {@code idempotency-key-invalid} problem when missing or blank, whatever the parameter's
 * type; every other missing header of the same handler gets Boot's problem details.
 */
@SpringBootTest(classes = IdempotencyKeyHeadersTests.TestApplication.class,
        properties = { "spring.mvc.problemdetails.enabled=true", "parcels.key-header=X-Parcel-Key" })
@AutoConfigureMockMvc
class IdempotencyKeyHeadersTests {

    private static final String PARCEL_KEY = "5f0c6a52-3c1e-4f7b-9a57-2a4f1d0e8b11";

    @Autowired
    private MockMvc mvc;

    @Autowired
    private ParcelController controller;

    @BeforeEach
    void reset() {
        this.controller.reset();
    }

    @Test
    void blankKeyHeaderOfAConvertedParameterIsTheKeyProblemNotAMissingHeader() throws Exception {
        expectKeyProblem(this.mvc.perform(post("/parcels").header("Idempotency-Key", "  ")), "/parcels")
            .andExpect(jsonPath("$.detail").value("Idempotency key is blank"));
        assertThat(this.controller.runs()).isEqualTo(0);
    }

    @Test
    void missingHeaderThatTheKeyIsMadeOfByPositionIsTheKeyProblem() throws Exception {
        expectKeyProblem(
                this.mvc.perform(post("/tenant-parcels").header("Idempotency-Key", "k-1").header("X-Trace", "t-1")),
                "/tenant-parcels")
            .andExpect(
                    jsonPath("$.detail").value("Idempotency key is missing: send the X-Tenant header it is made of"));
        assertThat(this.controller.runs()).isEqualTo(0);
    }

    @Test
    void missingHeaderThatTheKeyIsNotMadeOfIsBootsProblemDetail() throws Exception {
        this.mvc.perform(post("/tenant-parcels").header("Idempotency-Key", "k-1").header("X-Tenant", "acme"))
            .andExpect(status().isBadRequest())
            .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
            .andExpect(jsonPath("$.detail").value("Required header 'X-Trace' is not present."))
            .andExpect(jsonPath("$.problem").doesNotExist());
        assertThat(this.controller.runs()).isEqualTo(0);
    }

    @Test
    void requestWithEveryHeaderRunsTheHandler() throws Exception {
        this.mvc.perform(post("/parcels").header("Idempotency-Key", PARCEL_KEY)).andExpect(status().isCreated());
        this.mvc
            .perform(post("/tenant-parcels").header("Idempotency-Key", "k-1")
                .header("X-Tenant", "acme")
                .header("X-Trace", "t-1"))
            .andExpect(status().isCreated());
        assertThat(this.controller.runs()).isEqualTo(2);
    }

    @Test
    void keyHeaderNamedByAnExpressionIsTheHeaderItEvaluatesTo() throws Exception {
        expectKeyProblem(this.mvc.perform(post("/expression-parcels").header("Idempotency-Key", "k-1")),
                "/expression-parcels")
            .andExpect(jsonPath("$.detail")
                .value("Idempotency key is missing: send the X-Parcel-Key header it is made of"));
        this.mvc.perform(post("/expression-parcels").header("X-Parcel-Key", "k-1")).andExpect(status().isCreated());
        assertThat(this.controller.runs()).isEqualTo(1);
    }

    @Test
    void keyHeaderNamedByAnUnsetPlaceholderIsItsDefault() throws Exception {
        expectKeyProblem(this.mvc.perform(post("/default-parcels").header("X-Parcel-Key", "k-1")), "/default-parcels")
            .andExpect(jsonPath("$.detail").value("Idempotency key is missing: send it in the Idempotency-Key header"));
        this.mvc.perform(post("/default-parcels").header("Idempotency-Key", "k-1")).andExpect(status().isCreated());
        assertThat(this.controller.runs()).isEqualTo(1);
    }

    private static ResultActions expectKeyProblem(ResultActions result, String instance) throws Exception {
        return result.andExpect(status().isBadRequest())
            .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
            .andExpect(jsonPath("$.title").value("Bad Request"))
            .andExpect(jsonPath("$.instance").value(instance))
            .andExpect(jsonPath("$.problem").value(IdempotencyProblemAdvice.KEY_INVALID));
    }

    @RestController
    static class ParcelController {

        private final AtomicInteger runs = new AtomicInteger();

        @PostMapping("/parcels")
        @Idempotent(key = "#key")
        @ResponseStatus(HttpStatus.CREATED)
        public String send(@RequestHeader("Idempotency-Key") UUID key) {
            return "parcel-" + this.runs.incrementAndGet();
        }

        @PostMapping("/tenant-parcels")
        @Idempotent(key = "#p0 + ':' + #p1")
        @ResponseStatus(HttpStatus.CREATED)
        public String sendForTenant(@RequestHeader("X-Tenant") String tenant,
                @RequestHeader("Idempotency-Key") String key, @RequestHeader("X-Trace") String trace) {
            return "parcel-" + this.runs.incrementAndGet();
        }

        @PostMapping("/expression-parcels")
        @Idempotent(key = "#key")
        @ResponseStatus(HttpStatus.CREATED)
        public String sendUnderAnExpressionHeader(@RequestHeader("#{environment['parcels.key-header']}") String key) {
            return "parcel-" + this.runs.incrementAndGet();
        }

        @PostMapping("/default-parcels")
        @Idempotent(key = "#key")
        @ResponseStatus(HttpStatus.CREATED)
        public String sendUnderADefaultHeader(@RequestHeader("${parcels.unset-header:Idempotency-Key}") String key) {
            return "parcel-" + this.runs.incrementAndGet();
        }

        int runs() {
            return this.runs.get();
        }

        void reset() {
            this.runs.set(0);
        }

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(ParcelController.class)
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

    }

}
