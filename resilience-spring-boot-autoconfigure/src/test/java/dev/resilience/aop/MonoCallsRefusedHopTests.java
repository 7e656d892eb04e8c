package dev.resilience.aop;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ExecutionListener;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A call of a method returning {@code Mono} with a store that may block, subscribed on a
 * thread Reactor marks non-blocking, whose executor refuses to start it, or accepts its
 * start and drops it when the application stops: the call ends with status ERROR and the
 * refusal, as when the executor refuses a later step, heard by the listeners and timed as
 * any call is, and the method never runs.
 */
class MonoCallsRefusedHopTests {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class))
        .withPropertyValues("resilience.idempotency.fingerprint-secret=0123456789abcdef0123456789abcdef")
        .withBean(IdempotencyStore.class, MonoCallsRefusedHopTests::ownStore)
        .withBean(ObservationRegistry.class, this::observations)
        .withBean(Results.class)
        .withBean(Quotes.class);

    @Test
    void callWhoseStartTheExecutorRefusesEndsWithTheRefusal() {
        this.contextRunner.withPropertyValues("resilience.async.executor=refusing")
            .withBean("refusing", Executor.class, () -> (task) -> {
                throw new RejectedExecutionException("saturated");
            })
            .run((context) -> {
                Quotes quotes = context.getBean(Quotes.class);

                StepVerifier.create(quotes.result("k-1").subscribeOn(Schedulers.parallel())).assertNext((result) -> {
                    assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
                    assertThat(result.error()).isInstanceOf(RejectedExecutionException.class).hasMessage("saturated");
                    assertThat(result.attempts()).isZero();
                }).expectComplete().verify(BOUND);
                StepVerifier.create(quotes.quote("k-2").subscribeOn(Schedulers.parallel()))
                    .expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(RejectedExecutionException.class)
                        .hasMessage("saturated"))
                    .verify(BOUND);

                assertThat(quotes.calls()).isZero();
            });
    }

    @Test
    void callWhoseStartTheExecutorRefusesIsHeardByTheListenersAndTimedAsAnError() {
        this.contextRunner.withPropertyValues("resilience.async.executor=refusing")
            .withBean("refusing", Executor.class, () -> (task) -> {
                throw new RejectedExecutionException("saturated");
            })
            .run((context) -> {
                StepVerifier.create(context.getBean(Quotes.class).quote("k-3").subscribeOn(Schedulers.parallel()))
                    .expectError(RejectedExecutionException.class)
                    .verify(BOUND);

                assertThat(context.getBean(Results.class).all()).singleElement().satisfies((result) -> {
                    assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
                    assertThat(result.error()).isInstanceOf(RejectedExecutionException.class).hasMessage("saturated");
                    assertThat(result.attempts()).isZero();
                });
                assertThat(this.meters.get("resilience.calls")
                    .tags("name", "hop-quote", "status", "error")
                    .timer()
                    .count()).isOne();
            });
    }

    @Test
    void callWhoseStartTheExecutorDropsAsTheApplicationStopsEndsWithAnError() {
        this.contextRunner.withPropertyValues("resilience.async.executor=dropping")
            .withBean("dropping", DroppingExecutor.class)
            .run((context) -> {
                Quotes quotes = context.getBean(Quotes.class);
                Results results = context.getBean(Results.class);
                DroppingExecutor executor = context.getBean(DroppingExecutor.class);

                StepVerifier.create(quotes.quote("k-4").subscribeOn(Schedulers.parallel()))
                    .then(() -> await().atMost(BOUND).until(() -> executor.queued() == 1))
                    .then(context::close)
                    .expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(RejectedExecutionException.class))
                    .verify(BOUND);

                assertThat(executor.queued()).as("the dropped start").isZero();
                assertThat(quotes.calls()).isZero();
                assertThat(results.all()).singleElement()
                    .satisfies((result) -> assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR));
            });
    }

    private ObservationRegistry observations() {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(this.meters));
        return registry;
    }

    private static IdempotencyStore ownStore() {
        InMemoryIdempotencyStore memory = new InMemoryIdempotencyStore(new VirtualTimeSource());
        return new IdempotencyStore() {
            @Override
            public ClaimResult claim(String key, String fingerprint, Duration inProgressTtl) {
                return memory.claim(key, fingerprint, inProgressTtl);
            }

            @Override
            public boolean complete(String key, String ownerToken, @Nullable Object result, Duration ttl) {
                return memory.complete(key, ownerToken, result, ttl);
            }

            @Override
            public boolean release(String key, String ownerToken) {
                return memory.release(key, ownerToken);
            }
        };
    }

    /**
     * An executor that queues every task and drops its queue unrun when it is destroyed,
     * as one shut down with a queue does.
     */
    static class DroppingExecutor implements Executor, DisposableBean {

        private final List<Runnable> queue = new CopyOnWriteArrayList<>();

        @Override
        public void execute(Runnable task) {
            this.queue.add(task);
        }

        int queued() {
            return this.queue.size();
        }

        @Override
        public void destroy() {
            this.queue.clear();
        }

    }

    /**
     * Keeps the account of every call.
     */
    static class Results implements ExecutionListener {

        private final List<ExecutionResult<?>> results = new CopyOnWriteArrayList<>();

        @Override
        public void onComplete(String name, ExecutionResult<?> result) {
            this.results.add(result);
        }

        List<ExecutionResult<?>> all() {
            return this.results;
        }

    }

    static class Quotes {

        private final AtomicInteger calls = new AtomicInteger();

        int calls() {
            return this.calls.get();
        }

        @Idempotent(name = "hop-result", key = "#key")
        public Mono<ExecutionResult<String>> result(String key) {
            this.calls.incrementAndGet();
            return Mono.just(ExecutionResult.success("quote"));
        }

        @Idempotent(name = "hop-quote", key = "#key")
        public Mono<String> quote(String key) {
            this.calls.incrementAndGet();
            return Mono.just("quote");
        }

    }

}
