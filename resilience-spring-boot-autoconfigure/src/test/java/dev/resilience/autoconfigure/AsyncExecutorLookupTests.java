package dev.resilience.autoconfigure;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResiliencePolicies;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which executor runs what follows a timer or an asynchronous completion, by the rule of
 * {@code resilience.async.executor}, observed by the thread a pipeline's executor runs a
 * task on.
 */
class AsyncExecutorLookupTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(ResilienceAutoConfiguration.class, TaskExecutionAutoConfiguration.class));

    private static String threadOf(AssertableApplicationContext context) {
        Executor executor = context.getBean(ResiliencePolicies.class).pipeline("lookup").build().executor();
        CompletableFuture<String> thread = new CompletableFuture<>();
        executor.execute(() -> thread.complete(Thread.currentThread().getName()));
        return thread.orTimeout(10, TimeUnit.SECONDS).join();
    }

    private static ThreadPoolTaskExecutor pool(String prefix) {
        ThreadPoolTaskExecutor pool = new ThreadPoolTaskExecutor();
        pool.setThreadNamePrefix(prefix);
        pool.initialize();
        return pool;
    }

    @Test
    void byDefaultSpringBootsApplicationTaskExecutorRunsTheWork() {
        this.contextRunner.withPropertyValues("spring.task.execution.thread-name-prefix=boot-task-")
            .run((context) -> assertThat(threadOf(context)).startsWith("boot-task-"));
    }

    @Test
    void theExecutorNamedByTheSettingRunsTheWork() {
        this.contextRunner.withBean("paymentsPool", ThreadPoolTaskExecutor.class, () -> pool("payments-"))
            .withBean("otherPool", ThreadPoolTaskExecutor.class, () -> pool("other-"))
            .withPropertyValues("resilience.async.executor=paymentsPool")
            .run((context) -> assertThat(threadOf(context)).startsWith("payments-"));
    }

    @Test
    void whenTheApplicationDefinesItsOnlyTaskExecutorItRunsTheWork() {
        this.contextRunner.withBean("ordersPool", ThreadPoolTaskExecutor.class, () -> pool("orders-"))
            .run((context) -> {
                assertThat(context).doesNotHaveBean(AsyncExecutorLookup.APPLICATION_TASK_EXECUTOR);
                assertThat(threadOf(context)).startsWith("orders-");
            });
    }

    @Test
    void aSchedulerForScheduledJobsIsNotTakenForTheOnlyTaskExecutor() {
        this.contextRunner.withBean("taskScheduler", ThreadPoolTaskScheduler.class, () -> {
            ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
            scheduler.setThreadNamePrefix("scheduling-");
            scheduler.initialize();
            return scheduler;
        }).run((context) -> assertThat(threadOf(context)).startsWith("resilience-worker-"));
    }

    @Test
    void onAVirtualClockTheThreadThatRunsATaskRunsItsWorkUnlessAnExecutorIsNamed() {
        this.contextRunner.withBean(VirtualTimeSource.class)
            .run((context) -> assertThat(threadOf(context)).isEqualTo(Thread.currentThread().getName()));
        this.contextRunner.withBean(VirtualTimeSource.class)
            .withBean("paymentsPool", ThreadPoolTaskExecutor.class, () -> pool("payments-"))
            .withPropertyValues("resilience.async.executor=paymentsPool")
            .run((context) -> assertThat(threadOf(context)).startsWith("payments-"));
    }

    @Test
    void withSeveralExecutorsAndNoneChosenTheEnginesOwnPoolRunsTheWork() {
        this.contextRunner.withBean("onePool", ThreadPoolTaskExecutor.class, () -> pool("one-"))
            .withBean("twoPool", ThreadPoolTaskExecutor.class, () -> pool("two-"))
            .run((context) -> assertThat(threadOf(context)).startsWith("resilience-worker-"));
    }

    @Test
    void settingThatNamesNoExecutorBeanFailsTheStartNamingTheProperty() {
        this.contextRunner.withPropertyValues("resilience.async.executor=missingPool")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("resilience.async.executor", "missingPool", "no Executor bean named 'missingPool' exists"));
    }

    @Test
    void settingThatNamesABeanThatIsNoExecutorFailsTheStart() {
        this.contextRunner.withBean("notAnExecutor", Duration.class, () -> Duration.ZERO)
            .withPropertyValues("resilience.async.executor=notAnExecutor")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("resilience.async.executor", "notAnExecutor"));
    }

}
