package dev.resilience.autoconfigure;

import java.util.Arrays;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import dev.resilience.registry.InvalidResiliencePolicyException;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.task.TaskExecutor;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.util.function.SingletonSupplier;

/**
 * Finds the executor of the work that follows a timer or an asynchronous completion: the
 * bean named by {@code resilience.async.executor}; else Spring Boot's
 * {@code applicationTaskExecutor}; else, as {@code @Async} chooses when an application
 * defines its own executors, a bean named {@code taskExecutor} or the only
 * {@link TaskExecutor} that is not a {@link TaskScheduler} (a scheduler's pool is sized
 * for scheduled jobs); else none (the engine's own pool). A named bean that does not
 * exist fails the start.
 */
final class AsyncExecutorLookup {

    /** The name of the executor Spring Boot defines when the application defines none. */
    static final String APPLICATION_TASK_EXECUTOR = "applicationTaskExecutor";

    private static final String[] CONVENTIONAL_NAMES = { APPLICATION_TASK_EXECUTOR, "taskExecutor" };

    private AsyncExecutorLookup() {
    }

    /**
     * Returns the name of the executor bean of asynchronous work.
     * @param beanFactory where the executor bean is defined
     * @param properties the {@code resilience.*} settings
     * @return the bean name, or {@code null} when the engine's own pool should be used
     * @throws InvalidResiliencePolicyException when {@code resilience.async.executor}
     * names no Executor bean
     */
    static @Nullable String beanName(ListableBeanFactory beanFactory, ResilienceProperties properties) {
        String configured = properties.getAsync().getExecutor();
        if (configured != null && !configured.isBlank()) {
            if (!beanFactory.containsBean(configured) || !beanFactory.isTypeMatch(configured, Executor.class)) {
                throw new InvalidResiliencePolicyException("resilience.async", "resilience.async.executor", configured,
                        "no Executor bean named '" + configured + "' exists", "Define an Executor bean named '"
                                + configured + "', or remove the setting to use '" + APPLICATION_TASK_EXECUTOR + "'.");
            }
            return configured;
        }
        for (String conventional : CONVENTIONAL_NAMES) {
            if (beanFactory.containsBean(conventional) && beanFactory.isTypeMatch(conventional, Executor.class)) {
                return conventional;
            }
        }
        String[] taskExecutors = Arrays.stream(beanFactory.getBeanNamesForType(TaskExecutor.class, false, false))
            .filter((candidate) -> !beanFactory.isTypeMatch(candidate, TaskScheduler.class))
            .toArray(String[]::new);
        return (taskExecutors.length == 1) ? taskExecutors[0] : null;
    }

    /**
     * Returns an executor that runs each task on a bean looked up on first use, so that
     * finding it creates nothing early.
     * @param beanFactory where the executor bean is defined
     * @param name the bean's name
     * @return the executor
     */
    static Executor lazily(ListableBeanFactory beanFactory, String name) {
        Supplier<Executor> executor = SingletonSupplier.of(() -> beanFactory.getBean(name, Executor.class));
        return (task) -> executor.get().execute(task);
    }

}
