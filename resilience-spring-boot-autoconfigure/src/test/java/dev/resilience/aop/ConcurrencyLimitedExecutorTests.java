package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Retryable;
import dev.resilience.core.AttemptTimeoutException;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.core.task.SimpleAsyncTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * With {@code spring.threads.virtual.enabled=true}, Boot's
 * {@code applicationTaskExecutor} is a {@link SimpleAsyncTaskExecutor}, and
 * {@code spring.task.execution.simple.concurrency-limit} bounds it the usual way to cap
 * virtual threads. At the limit, its {@code execute} blocks the submitting thread until a
 * task ends. A fired timer hands its step to that executor, so the hand-off of a retry
 * blocks; DESIGN section 11: "One timer thread only fires timers ... A blocked
 * application method never delays another call's timeout": the blocked hand-off must not
 * hold up the one {@code resilience-timer} thread, so another call's attempt timeout
 * still fires.
 *
 * <p>
 * The executor is declared here as Boot declares it under virtual threads (the build runs
 * on Java 17, where Boot would not), with a limit of one, held by a task that waits for
 * the test. The blocked thread is observed through its stack, not a sleep.
 */
@SpringBootTest(classes = ConcurrencyLimitedExecutorTests.TestApplication.class,
        properties = { "resilience.retry.defaults.jitter=none", "resilience.retry.defaults.budget.enabled=false" })
class ConcurrencyLimitedExecutorTests {

    @Autowired
    private Downstream downstream;

    @Autowired
    @Qualifier("applicationTaskExecutor")
    private SimpleAsyncTaskExecutor executor;

    @Test
    void saturatedApplicationTaskExecutorNeverDelaysAnotherCallsAttemptTimeout() throws Exception {
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        this.executor.execute(() -> {
            busy.countDown();
            awaitQuietly(release);
        });
        try {
            assertThat(busy.await(5, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<String> retrying = this.downstream.retryLater();
            await().atMost(Duration.ofSeconds(5))
                .until(ConcurrencyLimitedExecutorTests::timerHandOffWaitsForTheExecutor);

            long start = System.nanoTime();
            Throwable outcome = catchThrowable(() -> this.downstream.slow());
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            System.out.printf("FIGURES saturated executor: a 100ms attempt timeout fired after %d ms%n", tookMillis);
            assertThat(outcome).as("outcome of a call with a 100ms attempt timeout")
                .isInstanceOf(AttemptTimeoutException.class);
            assertThat(tookMillis).isLessThan(1500);
            assertThat(retrying).isNotDone();
        }
        finally {
            release.countDown();
        }
    }

    private static boolean timerHandOffWaitsForTheExecutor() {
        return Thread.getAllStackTraces()
            .entrySet()
            .stream()
            .filter((entry) -> entry.getKey().getName().startsWith("resilience-timer"))
            .anyMatch((entry) -> Arrays.stream(entry.getValue())
                .anyMatch((frame) -> frame.getClassName().contains("ConcurrencyThrottle")));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        SimpleAsyncTaskExecutor applicationTaskExecutor() {
            SimpleAsyncTaskExecutor executor = new SimpleAsyncTaskExecutor("app-task-");
            executor.setConcurrencyLimit(1);
            return executor;
        }

        @Bean
        Downstream downstream() {
            return new Downstream();
        }

    }

    static class Downstream {

        private final AtomicInteger attempts = new AtomicInteger();

        @Retryable(value = "retry-later", maxAttempts = 2, delay = "10ms")
        public CompletableFuture<String> retryLater() {
            if (this.attempts.incrementAndGet() == 1) {
                return CompletableFuture.failedFuture(new IOException("first attempt refused"));
            }
            return CompletableFuture.completedFuture("second");
        }

        @Retryable(value = "bounded", maxAttempts = 1, attemptTimeout = "100ms")
        public String slow() throws InterruptedException {
            Thread.sleep(2000);
            return "done";
        }

    }

}
