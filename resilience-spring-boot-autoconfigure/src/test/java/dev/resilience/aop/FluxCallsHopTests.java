package dev.resilience.aop;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A call of a method returning {@code Flux} with a store that may block (a dead-letter
 * store of the application's own), subscribed on a thread Reactor marks non-blocking,
 * starts on the pipeline's executor: one refusing the start fails the subscription with
 * its refusal, and a subscription cancelled before the executor starts the call invokes
 * nothing.
 */
class FluxCallsHopTests {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final ApplicationContextRunner contexts = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class))
        .withPropertyValues("resilience.async.executor=hop")
        .withBean(DeadLetterStore.class, OwnDeadLetterStore::new)
        .withBean(MonoCallsRefusedHopTests.Results.class)
        .withBean(Feeds.class);

    @Test
    void callWhoseStartTheExecutorRefusesFailsWithTheRefusalHeardByTheListeners() {
        this.contexts.withBean("hop", Executor.class, () -> (task) -> {
            throw new RejectedExecutionException("saturated");
        }).run((context) -> {
            Feeds feeds = context.getBean(Feeds.class);

            StepVerifier.create(feeds.quotes().subscribeOn(Schedulers.parallel()))
                .expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(RejectedExecutionException.class)
                    .hasMessage("saturated"))
                .verify(BOUND);

            assertThat(feeds.calls()).isZero();
            assertThat(context.getBean(MonoCallsRefusedHopTests.Results.class).all()).singleElement()
                .satisfies((result) -> {
                    assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
                    assertThat(result.error()).isInstanceOf(RejectedExecutionException.class).hasMessage("saturated");
                });
        });
    }

    @Test
    void subscriptionCancelledBeforeTheExecutorStartsTheCallInvokesNothing() {
        ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
        this.contexts.withBean("hop", Executor.class, () -> tasks::add).run((context) -> {
            Feeds feeds = context.getBean(Feeds.class);

            Disposable subscription = feeds.quotes().subscribeOn(Schedulers.parallel()).subscribe();
            await().atMost(BOUND).until(() -> tasks.size() == 1);
            subscription.dispose();
            tasks.poll().run();

            assertThat(feeds.calls()).isZero();
        });
    }

    @Test
    void callStartedOnTheExecutorEmitsTheMethodsElements() {
        this.contexts.withBean("hop", Executor.class, () -> (task) -> new Thread(task, "hop-executor").start())
            .run((context) -> {
                Feeds feeds = context.getBean(Feeds.class);

                StepVerifier.create(feeds.quotes().subscribeOn(Schedulers.parallel()))
                    .expectNext("1", "2")
                    .expectComplete()
                    .verify(BOUND);

                assertThat(feeds.calls()).isOne();
                assertThat(feeds.lastCallThread()).isEqualTo("hop-executor");
            });
    }

    static class Feeds {

        private final AtomicInteger calls = new AtomicInteger();

        private volatile @Nullable String lastCallThread;

        int calls() {
            return this.calls.get();
        }

        /**
         * Returns the name of the thread the last call ran on: where the elements reach
         * the subscriber is not said, as the thread of the subscriber's request may
         * deliver them.
         */
        @Nullable String lastCallThread() {
            return this.lastCallThread;
        }

        @Retryable(value = "hop-feed", maxAttempts = 1)
        public Flux<String> quotes() {
            this.calls.incrementAndGet();
            this.lastCallThread = Thread.currentThread().getName();
            return Flux.just("1", "2");
        }

    }

    /** A dead-letter store of the application's own, taken to block. */
    static class OwnDeadLetterStore implements DeadLetterStore {

        private final InMemoryDeadLetterStore letters = new InMemoryDeadLetterStore();

        @Override
        public void write(DeadLetter deadLetter) {
            this.letters.write(deadLetter);
        }

        @Override
        public List<DeadLetter> list(int limit) {
            return this.letters.list(limit);
        }

        @Override
        public Optional<DeadLetter> find(String id) {
            return this.letters.find(id);
        }

        @Override
        public boolean delete(String id) {
            return this.letters.delete(id);
        }

        @Override
        public int size() {
            return this.letters.size();
        }

    }

}
