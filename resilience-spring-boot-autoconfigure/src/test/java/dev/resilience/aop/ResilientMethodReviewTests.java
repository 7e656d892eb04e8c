package dev.resilience.aop;

import java.util.concurrent.CompletableFuture;

import dev.resilience.annotation.Bulkhead;
import dev.resilience.annotation.RateLimited;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dead letters of refused calls. DESIGN section 9 (and the README's dead-letter bullet)
 * write a letter when a {@code @Retryable} call ends with status ERROR, TIMEOUT, or
 * REJECTED <em>by an open breaker</em>; a refusal of a rate limiter or a full bulkhead is
 * none of these. Under a burst beyond a limit, every refused call would otherwise write a
 * letter, and a bounded store would evict the letters of work that failed for real.
 */
class ResilientMethodReviewTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withBean("callerRunsExecutor", java.util.concurrent.Executor.class, () -> Runnable::run)
        .withPropertyValues("resilience.async.executor=callerRunsExecutor",
                "resilience.retry.defaults.budget.enabled=false")
        .withBean(Reports.class);

    /**
     * A retried call refused by its rate limiter ends REJECTED and writes no dead letter.
     */
    @Test
    void retriedCallRefusedByItsRateLimiterWritesNoDeadLetter() {
        this.contextRunner.run((context) -> {
            Reports reports = context.getBean(Reports.class);
            DeadLetterStore deadLetters = context.getBean(DeadLetterStore.class);
            assertThat(reports.render("first").status()).isEqualTo(ExecutionStatus.SUCCESS);

            ExecutionResult<String> refused = reports.render("second");

            assertThat(refused.status()).isEqualTo(ExecutionStatus.REJECTED);
            assertThat(deadLetters.list(10)).isEmpty();
        });
    }

    /**
     * A retried call refused by a full bulkhead ends REJECTED and writes no dead letter.
     */
    @Test
    void retriedCallRefusedByAFullBulkheadWritesNoDeadLetter() {
        this.contextRunner.run((context) -> {
            Reports reports = context.getBean(Reports.class);
            DeadLetterStore deadLetters = context.getBean(DeadLetterStore.class);
            CompletableFuture<String> holding = reports.print("first");

            Throwable refused = reports.print("second").handle((value, failure) -> failure).join();

            assertThat(holding).isNotDone();
            assertThat(refused).isInstanceOf(BulkheadFullException.class);
            assertThat(deadLetters.list(10)).isEmpty();
        });
    }

    static class Reports {

        private final CompletableFuture<String> printing = new CompletableFuture<>();

        @Retryable(name = "reports", maxAttempts = 2, delay = "0")
        @RateLimited(name = "reports", limit = 1, period = "1h")
        public ExecutionResult<String> render(String report) {
            return ExecutionResult.success("rendered " + report);
        }

        @Retryable(name = "printing", maxAttempts = 2, delay = "0")
        @Bulkhead(name = "printers", maxConcurrentCalls = 1)
        public CompletableFuture<String> print(String report) {
            return this.printing;
        }

    }

}
