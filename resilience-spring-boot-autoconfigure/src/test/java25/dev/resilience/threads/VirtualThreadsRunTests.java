package dev.resilience.threads;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The run of the {@code java-25} profile has virtual threads on: every test JVM gets
 * {@code spring.threads.virtual.enabled=true} as a system property, so an application
 * context given no property of its own has Spring Boot's virtual-thread task executor,
 * which runs the retries of asynchronous methods.
 */
class VirtualThreadsRunTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, TaskExecutionAutoConfiguration.class,
                ResilienceAutoConfiguration.class))
        .withBean(Quotes.class);

    @Test
    void theRunSetsVirtualThreadsForEveryTestJvm() {
        assertThat(System.getProperty("spring.threads.virtual.enabled")).isEqualTo("true");
    }

    @Test
    void aRetryOfAnAsynchronousMethodRunsOnAVirtualThreadWithoutAPropertyOfItsOwn() {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);

            assertThat(quotes.quote().get(10, TimeUnit.SECONDS)).isEqualTo("quote");

            assertThat(quotes.attemptThreads()).hasSize(2);
            assertThat(quotes.attemptThreads().get(1).isVirtual()).as("the retry's thread").isTrue();
        });
    }

    static class Quotes {

        private final List<Thread> attemptThreads = new CopyOnWriteArrayList<>();

        @Retryable(name = "quotes", maxAttempts = 2, delay = "1ms", jitter = "none")
        public CompletableFuture<String> quote() {
            this.attemptThreads.add(Thread.currentThread());
            return (this.attemptThreads.size() == 1)
                    ? CompletableFuture.failedFuture(new IllegalStateException("first attempt"))
                    : CompletableFuture.completedFuture("quote");
        }

        List<Thread> attemptThreads() {
            return this.attemptThreads;
        }

    }

}
