package dev.resilience.aop;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.deadletter.DeadLetterStore;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call of a {@code Mono} or {@code Flux} method with a store that may block, subscribed
 * on the timer thread of kotlinx.coroutines (told by its name, with or without the
 * coroutine's name its debug mode adds), starts on the pipeline's executor, without
 * kotlinx on the class path: the {@code Flux}, which decides on its first request, as the
 * {@code Mono} does on its subscription.
 */
class KotlinxTimerThreadHopTests {

    private static final String EXECUTOR_THREAD = "engine";

    private final ApplicationContextRunner contexts = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class))
        .withPropertyValues("resilience.async.executor=hop")
        .withBean("hop", Executor.class, () -> (task) -> new Thread(task, EXECUTOR_THREAD).start())
        .withBean(DeadLetterStore.class, FluxCallsHopTests.OwnDeadLetterStore::new)
        .withBean(Feeds.class);

    @Test
    void fluxRequestedOnTheTimerThreadInDebugModeRunsOnTheExecutor() {
        this.contexts.run((context) -> {
            Feeds feeds = context.getBean(Feeds.class);
            CompletableFuture<List<String>> result = new CompletableFuture<>();
            Thread timer = new Thread(
                    () -> feeds.quotes().collectList().subscribe(result::complete, result::completeExceptionally),
                    "kotlinx.coroutines.DefaultExecutor @coroutine#7");
            timer.start();

            assertThat(result.get(10, TimeUnit.SECONDS)).containsExactly("1", "2");
            assertThat(feeds.threads()).containsExactly(EXECUTOR_THREAD);
        });
    }

    @Test
    void monoSubscribedOnTheTimerThreadRunsOnTheExecutor() {
        this.contexts.run((context) -> {
            Feeds feeds = context.getBean(Feeds.class);
            CompletableFuture<String> result = new CompletableFuture<>();
            Thread timer = new Thread(() -> feeds.quote().subscribe(result::complete, result::completeExceptionally),
                    "kotlinx.coroutines.DefaultExecutor");
            timer.start();

            assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("1");
            assertThat(feeds.threads()).containsExactly(EXECUTOR_THREAD);
        });
    }

    static class Feeds {

        private final List<String> threads = new CopyOnWriteArrayList<>();

        List<String> threads() {
            return this.threads;
        }

        @Retryable(value = "timer-feed", maxAttempts = 1)
        public Flux<String> quotes() {
            this.threads.add(Thread.currentThread().getName());
            return Flux.just("1", "2");
        }

        @Retryable(value = "timer-quote", maxAttempts = 1)
        public Mono<String> quote() {
            this.threads.add(Thread.currentThread().getName());
            return Mono.just("1");
        }

    }

}
