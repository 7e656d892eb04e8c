package dev.resilience.web;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceWebMvcAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.context.request.async.WebAsyncTask;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.asyncDispatch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * DESIGN section 16: a method with an annotation of ours that returns a task Spring MVC
 * runs after the method has returned fails the start. Before this check an
 * {@code @Idempotent} controller returning a {@code Callable} stored the task: three
 * requests with one key ran the charge three times, the second and third marked
 * {@code Idempotent-Replayed: true}.
 */
class AsyncWebReturnTypesTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class);

    @Test
    void idempotentControllerReturningCallableFailsTheStartNamingTheMethodAndTheFix() {
        this.contextRunner.withBean("chargeController", CallableChargeController.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure())).contains(
                    "Invalid resilience setting of bean 'chargeController', method CallableChargeController#charge:")
                .contains("Setting: return type")
                .contains("Value: \"java.util.concurrent.Callable<java.lang.String>\"")
                .contains("Reason: a Callable does its work after the method has returned: the annotations would "
                        + "retry, guard and store the Callable itself, not its work, so a replay of an idempotent "
                        + "call would run the work again")
                .contains("Action: Return the value itself (ResponseEntity or the body), or a CompletableFuture or "
                        + "CompletionStage of it, which Spring MVC also answers asynchronously."));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|',
            textBlock = """
                    WebAsyncTaskController       | org.springframework.web.context.request.async.WebAsyncTask<java.lang.String>  | WebAsyncTask
                    DeferredResultController     | org.springframework.web.context.request.async.DeferredResult<java.lang.String> | DeferredResult
                    StreamingController          | org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody | StreamingResponseBody
                    EmitterController            | org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter | ResponseBodyEmitter
                    SseController                | org.springframework.web.servlet.mvc.method.annotation.SseEmitter | SseEmitter
                    StreamingEntityController    | org.springframework.http.ResponseEntity<org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody> | StreamingResponseBody
                    FutureOfDeferredController   | java.util.concurrent.CompletableFuture<org.springframework.web.context.request.async.DeferredResult<java.lang.String>> | DeferredResult
                    """)
    void eachAsyncWebReturnTypeFailsTheStart(String controller, String returnType, String task) throws Exception {
        Class<?> type = Class.forName(AsyncWebReturnTypesTests.class.getName() + "$" + controller);
        this.contextRunner.withBean("controller", type)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("method " + controller + "#")
                .contains("Value: \"" + returnType + "\"")
                .contains("Reason: a " + task + " does its work after the method has returned"));
    }

    @Test
    void retryableServiceReturningCallableFailsTheStartToo() {
        this.contextRunner.withBean("reports", CallableReports.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Invalid resilience setting of bean 'reports', method CallableReports#render:")
                .contains("Reason: a Callable does its work after the method has returned"));
    }

    @Test
    void idempotentControllerReturningCompletableFutureRunsTheChargeOnceForThreeRequestsWithOneKey() {
        new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    ResilienceWebMvcAutoConfiguration.class, WebMvcAutoConfiguration.class,
                    HttpMessageConvertersAutoConfiguration.class, JacksonAutoConfiguration.class))
            .withBean(VirtualTimeSource.class)
            .withBean(FutureChargeController.class)
            .run((context) -> {
                MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
                for (int request = 1; request <= 3; request++) {
                    MvcResult started = mvc.perform(post("/charges").header("Idempotency-Key", "charge-1"))
                        .andExpect(request().asyncStarted())
                        .andReturn();
                    mvc.perform(asyncDispatch(started))
                        .andExpect(status().isOk())
                        .andExpect(content().string("charge-1"))
                        .andExpect((request == 1) ? header().doesNotExist(IdempotentReplayHeaderListener.HEADER)
                                : header().string(IdempotentReplayHeaderListener.HEADER, "true"));
                }
                assertThat(context.getBean(FutureChargeController.class).charges()).isEqualTo(1);
            });
    }

    @RestController
    static class CallableChargeController {

        private final AtomicInteger charges = new AtomicInteger();

        @PostMapping("/charges")
        @Idempotent(key = "#key")
        public Callable<String> charge(@RequestHeader("Idempotency-Key") String key) {
            return () -> "charge-" + this.charges.incrementAndGet();
        }

    }

    @RestController
    static class FutureChargeController {

        private final AtomicInteger charges = new AtomicInteger();

        @PostMapping("/charges")
        @Idempotent(key = "#key")
        public CompletableFuture<String> charge(@RequestHeader("Idempotency-Key") String key) {
            return CompletableFuture.completedFuture("charge-" + this.charges.incrementAndGet());
        }

        int charges() {
            return this.charges.get();
        }

    }

    @RestController
    static class WebAsyncTaskController {

        @PostMapping("/a")
        @Retryable
        public WebAsyncTask<String> charge() {
            return new WebAsyncTask<>(() -> "charged");
        }

    }

    @RestController
    static class DeferredResultController {

        @PostMapping("/b")
        @CircuitGuarded
        public DeferredResult<String> charge() {
            return new DeferredResult<>();
        }

    }

    @RestController
    static class StreamingController {

        @PostMapping("/c")
        @Fallback("none")
        public StreamingResponseBody charge() {
            return (out) -> out.write(1);
        }

        StreamingResponseBody none() {
            return (out) -> out.write(0);
        }

    }

    @RestController
    static class EmitterController {

        @PostMapping("/d")
        @Idempotent(key = "#key")
        public ResponseBodyEmitter charge(@RequestHeader("Idempotency-Key") String key) {
            return new ResponseBodyEmitter();
        }

    }

    @RestController
    static class SseController {

        @PostMapping("/e")
        @Idempotent(key = "#key")
        public SseEmitter charge(@RequestHeader("Idempotency-Key") String key) {
            return new SseEmitter();
        }

    }

    @RestController
    static class StreamingEntityController {

        @PostMapping("/f")
        @Idempotent(key = "#key")
        public ResponseEntity<StreamingResponseBody> charge(@RequestHeader("Idempotency-Key") String key) {
            return ResponseEntity.ok((out) -> out.write(1));
        }

    }

    @RestController
    static class FutureOfDeferredController {

        @PostMapping("/g")
        @Retryable
        public CompletableFuture<DeferredResult<String>> charge() {
            return CompletableFuture.completedFuture(new DeferredResult<>());
        }

    }

    static class CallableReports {

        @Retryable
        public Callable<String> render() {
            return () -> "report";
        }

    }

}
