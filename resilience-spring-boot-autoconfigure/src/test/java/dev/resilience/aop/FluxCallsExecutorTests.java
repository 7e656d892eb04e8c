package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import dev.resilience.annotation.Retryable;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A call of a method returning {@code Flux} with an executor of named threads, on the
 * virtual clock, whose timers fire on the thread that moves it: the attempt after a
 * backoff subscribes on the executor, never on the thread that fired the timer, and a
 * stream emitting on a Reactor scheduler reaches the subscriber whole and in order at a
 * bounded demand.
 */
@SpringBootTest(classes = FluxCallsExecutorTests.TestApplication.class,
        properties = { "resilience.retry.defaults.jitter=none", "resilience.retry.defaults.budget.enabled=false",
                "resilience.async.executor=fluxStepExecutor" })
class FluxCallsExecutorTests {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private static final int ELEMENTS = 5_000;

    @Autowired
    private ThreadRecordingFeeds feeds;

    @Autowired
    private VirtualTimeSource clock;

    @BeforeEach
    void reset() {
        this.feeds.reset();
    }

    @Test
    void attemptAfterABackoffSubscribesOnTheExecutorAndItsStreamArrivesWholeAndInOrder() {
        String timerThread = Thread.currentThread().getName();
        int pendingBefore = this.clock.pendingTasks();
        List<String> expected = IntStream.range(0, ELEMENTS).mapToObj(String::valueOf).toList();

        StepVerifier.create(this.feeds.feed().limitRate(16).collectList()).then(() -> {
            await().atMost(BOUND)
                .until(() -> this.feeds.attemptThreads().size() == 1 && this.clock.pendingTasks() == pendingBefore + 1);
            this.clock.advance(Duration.ofMillis(100));
        }).assertNext((received) -> assertThat(received).isEqualTo(expected)).expectComplete().verify(BOUND);

        List<String> threads = this.feeds.attemptThreads();
        assertThat(threads).hasSize(2);
        assertThat(threads.get(0)).as("the first attempt subscribes where the call is subscribed")
            .isEqualTo(timerThread);
        assertThat(threads.get(1)).startsWith("flux-step-");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

        @Bean(destroyMethod = "shutdownNow")
        ExecutorService fluxStepExecutor() {
            AtomicInteger count = new AtomicInteger();
            return Executors.newFixedThreadPool(2, (task) -> {
                Thread thread = new Thread(task, "flux-step-" + count.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });
        }

        @Bean
        ThreadRecordingFeeds threadRecordingFeeds() {
            return new ThreadRecordingFeeds();
        }

    }

    /**
     * A method returning a {@code Flux} that records the thread each subscription runs
     * on, fails its first subscription and then emits its elements on a Reactor
     * scheduler.
     */
    static class ThreadRecordingFeeds {

        private final List<String> attemptThreads = new CopyOnWriteArrayList<>();

        void reset() {
            this.attemptThreads.clear();
        }

        List<String> attemptThreads() {
            return this.attemptThreads;
        }

        @Retryable(value = "threads-feed", maxAttempts = 2, delay = "100ms", multiplier = 1)
        public Flux<String> feed() {
            return Flux.defer(() -> {
                this.attemptThreads.add(Thread.currentThread().getName());
                if (this.attemptThreads.size() < 2) {
                    return Flux.error(new IOException("feed down"));
                }
                return Flux.range(0, ELEMENTS).map(String::valueOf).publishOn(Schedulers.parallel(), 8);
            });
        }

    }

}
