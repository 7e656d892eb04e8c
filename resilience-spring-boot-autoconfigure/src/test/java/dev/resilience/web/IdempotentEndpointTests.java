package dev.resilience.web;

import java.security.Principal;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasLength;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@SpringBootTest(classes = IdempotentEndpointTests.TestApplication.class)
@AutoConfigureMockMvc
class IdempotentEndpointTests {

    private static final String BOOK = "{\"item\":\"book\"}";

    @Autowired
    private MockMvc mvc;

    @Autowired
    private OrderTestController controller;

    @Autowired
    private SwitchableIdempotencyStore store;

    private final ExecutorService otherThread = Executors.newSingleThreadExecutor();

    @BeforeEach
    void reset() {
        this.controller.reset();
        this.store.down(false);
    }

    @AfterEach
    void stopOtherThread() {
        this.otherThread.shutdownNow();
    }

    @Test
    void replayReturnsTheFirstStatusAndBodyMarkedAsReplayed() throws Exception {
        MvcResult first = this.mvc.perform(order("replay-1", BOOK))
            .andExpect(status().isCreated())
            .andExpect(header().doesNotExist(IdempotentReplayHeaderListener.HEADER))
            .andExpect(header().string("Location", "/orders/o-1"))
            .andReturn();

        this.mvc.perform(order("replay-1", BOOK))
            .andExpect(status().isCreated())
            .andExpect(header().string(IdempotentReplayHeaderListener.HEADER, "true"))
            .andExpect(header().string("Location", "/orders/o-1"))
            .andExpect(content().json(first.getResponse().getContentAsString(), true));
        assertThat(this.controller.runs()).isEqualTo(1);
    }

    @Test
    void replayOfABodyWithResponseStatusKeepsThatStatus() throws Exception {
        this.mvc.perform(payment("pay-1"))
            .andExpect(status().isCreated())
            .andExpect(header().doesNotExist(IdempotentReplayHeaderListener.HEADER))
            .andExpect(jsonPath("$.id").value("p-1"));

        this.mvc.perform(payment("pay-1"))
            .andExpect(status().isCreated())
            .andExpect(header().string(IdempotentReplayHeaderListener.HEADER, "true"))
            .andExpect(jsonPath("$.id").value("p-1"));
        assertThat(this.controller.runs()).isEqualTo(1);
    }

    @Test
    void missingKeyHeaderIsABadRequestProblem() throws Exception {
        expectProblem(this.mvc.perform(post("/orders").contentType(MediaType.APPLICATION_JSON).content(BOOK)), 400,
                "Bad Request", IdempotencyProblemAdvice.KEY_INVALID)
            .andExpect(jsonPath("$.detail").value(containsString("missing")));
        assertThat(this.controller.runs()).isZero();
    }

    @Test
    void missingHeaderOfAHandlerThatIsNotIdempotentIsLeftToSpringMvc() throws Exception {
        this.mvc.perform(get("/tenants"))
            .andExpect(status().isBadRequest())
            .andExpect(header().doesNotExist("Retry-After"))
            .andExpect(jsonPath("$.problem").doesNotExist());
    }

    @Test
    void blankKeyIsABadRequestProblem() throws Exception {
        expectProblem(this.mvc.perform(order("   ", BOOK)), 400, "Bad Request", IdempotencyProblemAdvice.KEY_INVALID)
            .andExpect(jsonPath("$.detail").value("Idempotency key is blank"));
        assertThat(this.controller.runs()).isZero();
    }

    @Test
    void keyWhoseExpressionThrowsIsABadRequestProblemWithoutRunningTheHandler() throws Exception {
        expectProblem(this.mvc.perform(post("/receipts").header("Idempotency-Key", "not-a-uuid")
            .contentType(MediaType.APPLICATION_JSON)
            .content(BOOK)), 400, "Bad Request", IdempotencyProblemAdvice.KEY_INVALID, "/receipts")
            .andExpect(jsonPath("$.detail").value("Idempotency key of OrderTestController#receipt cannot be worked "
                    + "out: its key expression threw IllegalArgumentException"));
        assertThat(this.controller.runs()).isZero();

        this.mvc
            .perform(post("/receipts").header("Idempotency-Key", "5f0c6a52-3c1e-4f7b-9a57-2a4f1d0e8b11")
                .contentType(MediaType.APPLICATION_JSON)
                .content(BOOK))
            .andExpect(status().isCreated());
        assertThat(this.controller.runs()).isEqualTo(1);
    }

    @Test
    void requestsDifferingOnlyInRequestObjectsPrincipalDetailsAndLocaleReplay() throws Exception {
        this.mvc.perform(signedOrder("signed-1", new TestPrincipal("alice", "session-1"), "en"))
            .andExpect(status().isCreated())
            .andExpect(header().doesNotExist(IdempotentReplayHeaderListener.HEADER));

        this.mvc.perform(signedOrder("signed-1", new TestPrincipal("alice", "session-2"), "fr"))
            .andExpect(status().isCreated())
            .andExpect(header().string(IdempotentReplayHeaderListener.HEADER, "true"))
            .andExpect(jsonPath("$.id").value("s-1"));
        assertThat(this.controller.runs()).isEqualTo(1);
    }

    @Test
    void anotherCallerReusingAKeyIsAMismatchNotAReplay() throws Exception {
        this.mvc.perform(signedOrder("signed-2", new TestPrincipal("alice", "session-1"), "en"))
            .andExpect(status().isCreated());

        expectProblem(this.mvc.perform(signedOrder("signed-2", new TestPrincipal("mallory", "session-1"), "en")), 422,
                "Unprocessable Content", IdempotencyProblemAdvice.KEY_MISMATCH, "/signed-orders");
        assertThat(this.controller.runs()).isEqualTo(1);
    }

    @Test
    void keyOf256CharactersIsABadRequestProblemQuotingOnlyItsStart() throws Exception {
        String key = "k".repeat(256);

        expectProblem(this.mvc.perform(order(key, BOOK)), 400, "Bad Request", IdempotencyProblemAdvice.KEY_INVALID)
            .andExpect(jsonPath("$.detail").value(containsString("256 characters")))
            .andExpect(jsonPath("$.detail").value(not(containsString("k".repeat(41)))))
            .andExpect(jsonPath("$.detail").value(hasLength(lessThan(120))));
        assertThat(this.controller.runs()).isZero();
    }

    @Test
    void keyWhoseFirstRequestIsStillRunningIsAConflictWithRetryAfterTheLease() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        this.controller.holdNextRequest(entered, release);
        CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> statusOf(order("in-progress-1", BOOK)),
                this.otherThread);
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        expectProblem(this.mvc.perform(order("in-progress-1", BOOK)), 409, "Conflict",
                IdempotencyProblemAdvice.KEY_IN_PROGRESS)
            .andExpect(header().string("Retry-After", "60"))
            .andExpect(jsonPath("$.detail").value(containsString("60 seconds")));

        release.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(201);
        assertThat(this.controller.runs()).isEqualTo(1);
    }

    @Test
    void keyReusedWithAnotherBodyIsUnprocessable() throws Exception {
        this.mvc.perform(order("mismatch-1", BOOK)).andExpect(status().isCreated());

        expectProblem(this.mvc.perform(order("mismatch-1", "{\"item\":\"lamp\"}")), 422, "Unprocessable Content",
                IdempotencyProblemAdvice.KEY_MISMATCH)
            .andExpect(jsonPath("$.detail").value(not(containsString("mismatch-1"))));
        assertThat(this.controller.runs()).isEqualTo(1);
    }

    @Test
    void unreachableStoreIsServiceUnavailableWithoutRunningTheHandler() throws Exception {
        this.store.down(true);

        expectProblem(this.mvc.perform(order("store-down-1", BOOK)), 503, "Service Unavailable",
                IdempotencyProblemAdvice.STORE_UNAVAILABLE)
            .andExpect(header().string("Retry-After", "5"))
            .andExpect(jsonPath("$.detail").value(not(containsString("6379"))));
        assertThat(this.controller.runs()).isZero();
    }

    @Test
    void keyThatLooksLikeAnExpressionIsAPlainKey() throws Exception {
        for (String key : new String[] { "T(java.lang.Runtime).getRuntime().exec('x')", "#{1+1}" }) {
            this.mvc.perform(order(key, BOOK))
                .andExpect(status().isCreated())
                .andExpect(header().doesNotExist(IdempotentReplayHeaderListener.HEADER))
                .andExpect(jsonPath("$.idempotencyKey").value(key));
            this.mvc.perform(order(key, BOOK))
                .andExpect(status().isCreated())
                .andExpect(header().string(IdempotentReplayHeaderListener.HEADER, "true"))
                .andExpect(jsonPath("$.idempotencyKey").value(key));
        }
        assertThat(this.controller.runs()).isEqualTo(2);
    }

    private ResultActions expectProblem(ResultActions result, int status, String title, String problem)
            throws Exception {
        return expectProblem(result, status, title, problem, "/orders");
    }

    private ResultActions expectProblem(ResultActions result, int status, String title, String problem, String instance)
            throws Exception {
        return result.andExpect(status().is(status))
            .andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
            .andExpect(jsonPath("$.type").doesNotExist())
            .andExpect(jsonPath("$.title").value(title))
            .andExpect(jsonPath("$.status").value(status))
            .andExpect(jsonPath("$.instance").value(instance))
            .andExpect(jsonPath("$.problem").value(problem));
    }

    private int statusOf(MockHttpServletRequestBuilder request) {
        try {
            return this.mvc.perform(request).andReturn().getResponse().getStatus();
        }
        catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static MockHttpServletRequestBuilder order(String key, String body) {
        return post("/orders").header("Idempotency-Key", key).contentType(MediaType.APPLICATION_JSON).content(body);
    }

    private static MockHttpServletRequestBuilder signedOrder(String key, Principal principal, String language) {
        return post("/signed-orders").header("Idempotency-Key", key)
            .header("Accept-Language", language)
            .principal(principal)
            .contentType(MediaType.APPLICATION_JSON)
            .content(BOOK);
    }

    private static MockHttpServletRequestBuilder payment(String key) {
        return post("/payments").header("Idempotency-Key", key).contentType(MediaType.APPLICATION_JSON).content(BOOK);
    }

    /**
     * An authenticated caller with details that change from one login to the next.
     *
     * @param name the caller's name
     * @param session the session the caller authenticated in
     */
    record TestPrincipal(String name, String session) implements Principal {

        @Override
        public String getName() {
            return this.name;
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OrderTestController.class)
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

        @Bean
        SwitchableIdempotencyStore idempotencyStore(VirtualTimeSource timeSource) {
            return new SwitchableIdempotencyStore(new InMemoryIdempotencyStore(timeSource, 1000));
        }

    }

}
