package dev.resilience.aop;

import java.time.Duration;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.RejectedResultException;
import dev.resilience.core.ResultPredicateException;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code @Retryable(retryOnResult)} and {@code @CircuitGuarded(failOnResult)} through the
 * proxy, on a virtual clock: SpEL over {@code #result} and the parameters, parsed at
 * startup, evaluated per attempt.
 */
class ResultPredicateAnnotationTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class, () -> this.clock)
        .withBean("callerRunsExecutor", java.util.concurrent.Executor.class, () -> Runnable::run)
        .withPropertyValues("resilience.async.executor=callerRunsExecutor",
                "resilience.circuit-breaker.instances.settlement.minimum-calls=2",
                "resilience.circuit-breaker.instances.settlement.sliding-window-size=2");

    @Test
    void pendingTwiceThenDoneTakesThreeAttempts() {
        this.contextRunner.withBean(Settlements.class).run((context) -> {
            Settlements settlements = context.getBean(Settlements.class);
            settlements.answer("PENDING", "PENDING", "DONE");

            ExecutionResult<String> result = settlements.status("order-1");

            assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
            assertThat(result.value()).isEqualTo("DONE");
            assertThat(result.attempts()).isEqualTo(3);
            assertThat(result.attemptFailures()).hasSize(2)
                .allSatisfy((failure) -> assertThat(failure.error()).isInstanceOf(RejectedResultException.class));
        });
    }

    @Test
    void alwaysPendingEndsErrorWithRejectedResultAfterMaxAttempts() {
        this.contextRunner.withBean(Settlements.class).run((context) -> {
            Settlements settlements = context.getBean(Settlements.class);
            settlements.answer("PENDING", "PENDING", "PENDING", "DONE");

            ExecutionResult<String> result = settlements.status("order-2");

            assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(result.attempts()).isEqualTo(3);
            assertThat(result.error()).isInstanceOfSatisfying(RejectedResultException.class,
                    (ex) -> assertThat(ex.result()).isEqualTo("PENDING"));
            assertThat(settlements.runs()).isEqualTo(3);
        });
    }

    @Test
    void rejectedResultAfterTheLastAttemptGoesToTheFallbacks() {
        this.contextRunner.withBean(Settlements.class).run((context) -> {
            Settlements settlements = context.getBean(Settlements.class);
            settlements.answer("PENDING", "PENDING", "PENDING");

            assertThat(settlements.statusOrLater("order-3")).isEqualTo("later: RejectedResultException");
        });
    }

    @Test
    void expressionReadsTheMethodsParametersByName() {
        this.contextRunner.withBean(Settlements.class).run((context) -> {
            Settlements settlements = context.getBean(Settlements.class);
            settlements.answer("PENDING", "DONE");

            assertThat(settlements.statusUnless("order-4", true).value()).isEqualTo("PENDING");
            assertThat(settlements.statusUnless("order-4", false).attempts()).isEqualTo(1);
            assertThat(settlements.runs()).isEqualTo(2);
        });
    }

    @Test
    void asyncPredicateSeesTheStagesValue() {
        this.contextRunner.withBean(Settlements.class).run((context) -> {
            Settlements settlements = context.getBean(Settlements.class);
            settlements.answer("PENDING", "DONE");

            CompletableFuture<String> status = settlements.statusAsync("order-5");
            assertThat(status).isNotDone();
            this.clock.advance(Duration.ofSeconds(1));

            assertThat(status).isCompletedWithValue("DONE");
            assertThat(settlements.runs()).isEqualTo(2);
        });
    }

    @Test
    void expressionThatThrowsEndsTheCallErrorWithResultPredicateException() {
        this.contextRunner.withBean(Settlements.class).run((context) -> {
            Settlements settlements = context.getBean(Settlements.class);
            settlements.answer((String) null);

            ExecutionResult<String> result = settlements.status("order-6");

            assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(result.attempts()).isEqualTo(1);
            assertThat(result.error()).isInstanceOf(ResultPredicateException.class);
        });
    }

    @Test
    void failOnResultOpensTheBreakerWhileTheCallsReturnTheirValues() {
        this.contextRunner.withBean(Settlements.class).run((context) -> {
            Settlements settlements = context.getBean(Settlements.class);
            settlements.answer("PENDING", "PENDING", "DONE");

            assertThat(settlements.settle("order-7")).isEqualTo("PENDING");
            assertThat(settlements.settle("order-8")).isEqualTo("PENDING");

            ResilienceRegistry registry = context.getBean(ResilienceRegistry.class);
            assertThat(registry.findCircuitBreaker("settlement").orElseThrow().state())
                .isEqualTo(CircuitBreakerState.OPEN);
            assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(() -> settlements.settle("order-9"));
            assertThat(settlements.runs()).isEqualTo(2);
        });
    }

    @Test
    void failOnResultLeavesOtherValuesSuccesses() {
        this.contextRunner.withBean(Settlements.class).run((context) -> {
            Settlements settlements = context.getBean(Settlements.class);
            settlements.answer("DONE", "DONE", "DONE");

            settlements.settle("order-10");
            settlements.settle("order-11");

            ResilienceRegistry registry = context.getBean(ResilienceRegistry.class);
            assertThat(registry.findCircuitBreaker("settlement").orElseThrow().state())
                .isEqualTo(CircuitBreakerState.CLOSED);
        });
    }

    @Test
    void expressionThatDoesNotParseFailsTheStartNamingBeanMethodAttributeAndError() {
        this.contextRunner.withBean("badSettlements", BadSettlements.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("bean 'badSettlements', method BadSettlements#status")
                .contains("@Retryable(retryOnResult)")
                .contains("#result ==")
                .contains("it is not a valid SpEL expression"));
    }

    @Test
    void expressionOverAnUnknownVariableFailsTheStart() {
        this.contextRunner.withBean("unknownSettlements", UnknownSettlements.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("bean 'unknownSettlements', method UnknownSettlements#settle")
                .contains("@CircuitGuarded(failOnResult)")
                .contains("#orderNumber, which is neither #result nor a parameter of the method")
                .contains("#orderId"));
    }

    @Test
    void twoAnnotationsWithOtherFailOnResultOnOneBreakerFailTheStart() {
        this.contextRunner.withBean("settlements", Settlements.class)
            .withBean("otherSettlements", OtherSettlements.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Setting: @CircuitGuarded(failOnResult)")
                .contains("breaker 'settlement' is also configured by bean '")
                .contains("Action: Give both annotations the same failOnResult, or give the two annotations "
                        + "different names (no property sets failOnResult).")
                .doesNotContain("fail-on-result"));
    }

    static class Settlements {

        private final Deque<String> answers = new ConcurrentLinkedDeque<>();

        private final AtomicInteger runs = new AtomicInteger();

        public void answer(String... answers) {
            this.answers.clear();
            for (String answer : answers) {
                this.answers.add((answer != null) ? answer : "null");
            }
        }

        public int runs() {
            return this.runs.get();
        }

        private String next() {
            this.runs.incrementAndGet();
            String answer = this.answers.poll();
            return "null".equals(answer) ? null : answer;
        }

        @Retryable(name = "statuses", maxAttempts = 3, delay = "10ms", retryOnResult = "#result.equals('PENDING')")
        public ExecutionResult<String> status(String orderId) {
            return ExecutionResult.success(next());
        }

        @Retryable(name = "statusesOrLater", maxAttempts = 3, delay = "10ms", retryOnResult = "#result == 'PENDING'")
        @Fallback("later")
        public String statusOrLater(String orderId) {
            return next();
        }

        String later(String orderId, Throwable ex) {
            return "later: " + ex.getClass().getSimpleName();
        }

        @Retryable(name = "statusesUnless", maxAttempts = 3, delay = "10ms",
                retryOnResult = "#result == 'PENDING' and !#acceptPending")
        public ExecutionResult<String> statusUnless(String orderId, boolean acceptPending) {
            return ExecutionResult.success(next());
        }

        @Retryable(name = "asyncStatuses", maxAttempts = 3, delay = "10ms", retryOnResult = "#result == 'PENDING'")
        public CompletableFuture<String> statusAsync(String orderId) {
            return CompletableFuture.completedFuture(next());
        }

        @CircuitGuarded(name = "settlement", failOnResult = "#result == 'PENDING'")
        public String settle(String orderId) {
            return next();
        }

    }

    static class OtherSettlements {

        @CircuitGuarded(name = "settlement", failOnResult = "#result == 'DECLINED'")
        public String settle(String orderId) {
            return orderId;
        }

    }

    static class BadSettlements {

        @Retryable(retryOnResult = "#result == ")
        public String status(String orderId) {
            return orderId;
        }

    }

    static class UnknownSettlements {

        @CircuitGuarded(failOnResult = "#orderNumber == null")
        public String settle(String orderId) {
            return orderId;
        }

    }

}
