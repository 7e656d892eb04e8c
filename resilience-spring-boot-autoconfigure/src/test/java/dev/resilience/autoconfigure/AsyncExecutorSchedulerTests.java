package dev.resilience.autoconfigure;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import dev.resilience.annotation.Retryable;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResiliencePolicies;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.context.LifecycleAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An executor that wraps the tasks it is given (a {@code ThreadPoolTaskScheduler} puts
 * each in a {@code DelegatingErrorHandlingRunnable} inside a
 * {@code ScheduledFutureTask}), chosen with {@code resilience.async.executor}: at context
 * close its {@code shutdownNow()} cancels its wrappers, never the step inside, yet the
 * call whose step it dropped still ends (DESIGN section 11: "A returned future always
 * completes").
 */
class AsyncExecutorSchedulerTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LifecycleAutoConfiguration.class,
                TaskExecutionAutoConfiguration.class, ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withBean(SlowQuotes.class)
        .withBean("taskScheduler", ThreadPoolTaskScheduler.class, () -> {
            ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
            scheduler.setThreadNamePrefix("scheduling-");
            return scheduler;
        })
        .withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=200ms",
                "resilience.async.executor=taskScheduler");

    @Test
    void futureOfACallWhoseNextStepWasQueuedOnTheApplicationsSchedulerCompletesWhenTheContextCloses() {
        this.contextRunner.run((context) -> {
            assertThat(context).doesNotHaveBean(AsyncExecutorLookup.APPLICATION_TASK_EXECUTOR);
            Executor steps = context.getBean(ResiliencePolicies.class).pipeline("lookup").build().executor();
            CompletableFuture<String> thread = new CompletableFuture<>();
            steps.execute(() -> thread.complete(Thread.currentThread().getName()));
            assertThat(thread.orTimeout(5, TimeUnit.SECONDS).join()).as("where steps run").startsWith("scheduling-");
            ThreadPoolTaskScheduler scheduler = context.getBean(ThreadPoolTaskScheduler.class);
            CountDownLatch busy = new CountDownLatch(1);
            CountDownLatch never = new CountDownLatch(1);
            scheduler.execute(() -> {
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
