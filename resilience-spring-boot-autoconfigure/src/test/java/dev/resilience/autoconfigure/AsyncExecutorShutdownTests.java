package dev.resilience.autoconfigure;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import dev.resilience.annotation.Retryable;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.context.LifecycleAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The work that follows an asynchronous attempt runs on Boot's
 * {@code applicationTaskExecutor} (the default of {@code resilience.async.executor}). At
 * context close Spring shuts that executor down with {@code shutdownNow()}: a task it had
 * queued is dropped, never run. DESIGN section 11: "A returned future always completes."
 * A caller still waiting on a protected call when the application stops (a request thread
 * in a graceful shutdown, a {@code @PreDestroy} that joins pending work) must not wait
 * forever.
 *
 * <p>
 * Here the executor's only thread is busy (as when application methods block on a hung
 * downstream) past the shutdown phase timeout, shortened to 200ms; the completion of the
 * call's attempt is queued behind it, and dropped by {@code shutdownNow()}.
 */
class AsyncExecutorShutdownTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LifecycleAutoConfiguration.class,
                TaskExecutionAutoConfiguration.class, ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withBean(SlowQuotes.class)
        .withPropertyValues("spring.task.execution.pool.core-size=1", "spring.task.execution.pool.max-size=1",
                "spring.lifecycle.timeout-per-shutdown-phase=200ms");

    @Test
    void futureOfACallWhoseNextStepWasQueuedCompletesWhenTheContextCloses() {
        this.contextRunner.run((context) -> {
            Executor applicationTaskExecutor = context.getBean("applicationTaskExecutor", Executor.class);
            CountDownLatch busy = new CountDownLatch(1);
            CountDownLatch never = new CountDownLatch(1);
            applicationTaskExecutor.execute(() -> {
                busy.countDown();
                try {
                    never.await();
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(busy.await(5, TimeUnit.SECONDS)).isTrue();
            SlowQuotes quotes = context.getBean(SlowQuotes.class);

            CompletableFuture<String> future = quotes.quote("ETH");
            quotes.pending().complete("42");
            context.close();

            assertThat(future).as("the returned future, whose attempt's value had arrived")
                .succeedsWithin(Duration.ofSeconds(5))
                .isEqualTo("42");
        });
    }

    static class SlowQuotes {

        final CompletableFuture<String> pending = new CompletableFuture<>();

        CompletableFuture<String> pending() {
            return this.pending;
        }

        @Retryable("slow-quotes")
        public CompletableFuture<String> quote(String symbol) {
            return this.pending;
        }

    }

}
