package dev.resilience.aop;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Result expressions that can only fail at run time are refused at startup (DESIGN
 * section 4: everything is checked when the context starts, nothing is left to the first
 * call in production): a predicate over {@code #result} of a method that returns nothing,
 * and references the evaluation context cannot resolve (a bean, a function, a type that
 * does not exist), which make every call end ERROR with a
 * {@code ResultPredicateException}.
 */
class ResultExpressionReviewTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withPropertyValues("resilience.retry.defaults.budget.enabled=false");

    /** retryOnResult on a void method, whose #result is always null, fails the start. */
    @Test
    void retryOnResultOfAVoidMethodFailsTheStart() {
        this.contextRunner.withBean("mailer", VoidRetryMailer.class)
            .run((context) -> assertThat(analysisOf(context)).contains("bean 'mailer', method VoidRetryMailer#send")
                .contains("@Retryable(retryOnResult)"));
    }

    /** failOnResult on a void method, whose #result is always null, fails the start. */
    @Test
    void failOnResultOfAVoidMethodFailsTheStart() {
        this.contextRunner.withBean("mailer", VoidBreakerMailer.class)
            .run((context) -> assertThat(analysisOf(context)).contains("bean 'mailer', method VoidBreakerMailer#send")
                .contains("@CircuitGuarded(failOnResult)"));
    }

    /**
     * A bean reference, such as the circuitBreakers bean DESIGN section 14 offers to
     * SpEL, either resolves or fails the start; it never makes every call end ERROR.
     */
    @Test
    void beanReferenceInRetryOnResultResolvesOrFailsTheStart() {
        this.contextRunner.withBean("statuses", BeanReferencingStatuses.class).run((context) -> {
            if (context.getStartupFailure() != null) {
                assertThat(FailureAnalyses.describe(context.getStartupFailure())).contains("@Retryable(retryOnResult)");
                return;
            }
            ExecutionResult<String> result = context.getBean(BeanReferencingStatuses.class).status("order-1");
            assertThat(result.status()).as("%s", result).isEqualTo(ExecutionStatus.SUCCESS);
            assertThat(result.attempts()).isOne();
        });
    }

    /**
     * A function reference, which the evaluation context never registers, fails the
     * start.
     */
    @Test
    void functionReferenceInRetryOnResultFailsTheStart() {
        this.contextRunner.withBean("statuses", FunctionReferencingStatuses.class)
            .run((context) -> assertThat(analysisOf(context))
                .contains("bean 'statuses', method FunctionReferencingStatuses#status")
                .contains("@Retryable(retryOnResult)"));
    }

    /** A type reference to a class that does not exist fails the start. */
    @Test
    void typeReferenceToAMissingClassInFailOnResultFailsTheStart() {
        this.contextRunner.withBean("statuses", MissingTypeStatuses.class)
            .run((context) -> assertThat(analysisOf(context))
                .contains("bean 'statuses', method MissingTypeStatuses#status")
                .contains("@CircuitGuarded(failOnResult)"));
    }

    private static String analysisOf(AssertableApplicationContext context) {
        assertThat(context).as("the start should have failed").hasFailed();
        return FailureAnalyses.describe(context.getStartupFailure());
    }

    static class VoidRetryMailer {

        @Retryable(name = "mail", maxAttempts = 2, delay = "0", retryOnResult = "#result == null")
        public void send(String message) {
        }

    }

    static class VoidBreakerMailer {

        @CircuitGuarded(name = "mail", failOnResult = "#result == null")
        public void send(String message) {
        }

    }

    static class BeanReferencingStatuses {

        @Retryable(name = "statuses", maxAttempts = 2, delay = "0",
                retryOnResult = "@circuitBreakers.allows('statuses') and #result == 'PENDING'")
        public ExecutionResult<String> status(String orderId) {
            return ExecutionResult.success("DONE");
        }

    }

    static class FunctionReferencingStatuses {

        @Retryable(name = "statuses", maxAttempts = 2, delay = "0", retryOnResult = "#isPending(#result)")
        public ExecutionResult<String> status(String orderId) {
            return ExecutionResult.success("DONE");
        }

    }

    static class MissingTypeStatuses {

        @CircuitGuarded(name = "statuses", failOnResult = "#result == T(com.example.missing.Statuses).PENDING")
        public String status(String orderId) {
            return "DONE";
        }

    }

}
