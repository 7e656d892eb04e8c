package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Which thread runs what in a call of a method returning {@code Mono}, on the virtual
 * clock, whose timers fire on the thread that moves it, with an executor of named
 * threads: the first attempt subscribes on the subscribing thread, and every attempt and
 * fallback after a backoff on the executor, never on the thread that fired the timer.
 */
@SpringBootTest(classes = MonoCallsExecutorTests.TestApplication.class,
        properties = { "resilience.retry.defaults.jitter=none", "resilience.retry.defaults.budget.enabled=false",
                "resilience.async.executor=stepExecutor" })
class MonoCallsExecutorTests {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @Autowired
    private ThreadRecordingQuotes quotes;

    @Autowired
    private VirtualTimeSource clock;

    @BeforeEach
    void reset() {
        this.quotes.reset();
    }

    @Test
    void noAttemptAfterABackoffRunsOnTheThreadThatFiredTheTimer() {
        String timerThread = Thread.currentThread().getName();
        int pendingBefore = this.clock.pendingTasks();

        StepVerifier.create(this.quotes.quote())
            .then(() -> advanceOnceTheBackoffIsScheduled(1, pendingBefore, Duration.ofMillis(100)))
            .then(() -> advanceOnceTheBackoffIsScheduled(2, pendingBefore, Duration.ofMillis(200)))
            .expectNext("ETH 3100")
            .expectComplete()
            .verify(BOUND);

        List<String> threads = this.quotes.attemptThreads();
        assertThat(threads).hasSize(3);
        assertThat(threads.get(0)).as("the first attempt subscribes where the call is subscribed")
            .isEqualTo(timerThread);
        assertThat(threads.subList(1, 3)).allSatisfy((name) -> assertThat(name).startsWith("mono-step-"));
    }

    @Test
    void fallbackAfterABackoffRunsOnTheExecutor() {
        String timerThread = Thread.currentThread().getName();
        int pendingBefore = this.clock.pendingTasks();

        StepVerifier.create(this.quotes.failing())
            .then(() -> advanceOnceTheBackoffIsScheduled(1, pendingBefore, Duration.ofMillis(100)))
            .expectNext("cached")
            .expectComplete()
            .verify(BOUND);

        assertThat(this.quotes.attemptThreads()).hasSize(2);
        assertThat(this.quotes.fallbackThreads()).singleElement()
            .satisfies((name) -> assertThat(name).startsWith("mono-step-").isNotEqualTo(timerThread));
    }

    /**
     * Waits for the attempts so far to have run and the next backoff to be scheduled,
     * then moves the clock past it.
     */
    private void advanceOnceTheBackoffIsScheduled(int attempts, int pendingBefore, Duration backoff) {
        await().atMost(BOUND)
            .until(() -> this.quotes.attemptThreads().size() == attempts
                    && this.clock.pendingTasks() == pendingBefore + 1);
        this.clock.advance(backoff);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

        @Bean(destroyMethod = "shutdownNow")
        ExecutorService stepExecutor() {
            AtomicInteger count = new AtomicInteger();
            return Executors.newFixedThreadPool(2, (task) -> {
                Thread thread = new Thread(task, "mono-step-" + count.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });
        }

        @Bean
        ThreadRecordingQuotes threadRecordingQuotes() {
            return new ThreadRecordingQuotes();
        }

    }

    /**
     * Methods returning a {@code Mono} that records the thread each subscription and each
     * fallback runs on.
     */
    static class ThreadRecordingQuotes {

        private final List<String> attemptThreads = new CopyOnWriteArrayList<>();

        private final List<String> fallbackThreads = new CopyOnWriteArrayList<>();

        void reset() {
            this.attemptThreads.clear();
            this.fallbackThreads.clear();
        }

        List<String> attemptThreads() {
            return this.attemptThreads;
        }

        List<String> fallbackThreads() {
            return this.fallbackThreads;
        }

        @Retryable(value = "threads-quote", maxAttempts = 3, delay = "100ms", multiplier = 2)
        public Mono<String> quote() {
            return Mono.fromCallable(() -> {
                this.attemptThreads.add(Thread.currentThread().getName());
                if (this.attemptThreads.size() < 3) {
                    throw new IOException("oracle down");
                }
                return "ETH 3100";
            });
        }

        @Retryable(value = "threads-failing", maxAttempts = 2, delay = "100ms", multiplier = 1)
        @Fallback("cached")
        public Mono<String> failing() {
            return Mono.fromCallable(() -> {
                this.attemptThreads.add(Thread.currentThread().getName());
                throw new IOException("oracle down");
            });
        }

        Mono<String> cached() {
            return Mono.fromCallable(() -> {
                this.fallbackThreads.add(Thread.currentThread().getName());
                return "cached";
            });
        }

    }

}
