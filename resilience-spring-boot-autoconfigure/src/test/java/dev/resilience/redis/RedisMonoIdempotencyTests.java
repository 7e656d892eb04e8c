package dev.resilience.redis;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @Idempotent} and {@code @Fallback(lastGood)} on methods returning {@code Mono}
 * with the Redis stores and a real {@code redis-server}: a call subscribed on a thread
 * Reactor marks non-blocking ({@code Schedulers.parallel()}) starts on the pipeline's
 * executor, so the stores' blocking commands never run on that thread, while a call whose
 * pipeline has no store that may block starts where it is subscribed.
 */
class RedisMonoIdempotencyTests {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ResilienceAutoConfiguration.class,
                ResilienceRedisAutoConfiguration.class, DataRedisAutoConfiguration.class,
                JacksonAutoConfiguration.class))
        .withPropertyValues(FingerprintSecret.PROPERTY, "resilience.idempotency.store=redis",
                "resilience.fallback.last-good.store=redis", "spring.application.name=payments",
                "resilience.async.executor=storeSteps")
        .withPropertyValues(redis.springProperties().toArray(String[]::new))
        .withBean("storeSteps", ExecutorService.class, RedisMonoIdempotencyTests::storeSteps,
                (definition) -> definition.setDestroyMethodName("shutdownNow"))
        .withBean(VirtualTimeSource.class)
        .withBean(ReactivePayments.class);

    @Test
    void callSubscribedOnAParallelThreadClaimsAndCompletesItsKeyInRedisOnTheExecutor() {
        this.contextRunner.run((context) -> {
            assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(RedisIdempotencyStore.class);
            ReactivePayments payments = context.getBean(ReactivePayments.class);

            StepVerifier.create(payments.recorded(payments.pay("k-1")).subscribeOn(Schedulers.parallel()))
                .expectNext("receipt-1")
                .expectComplete()
                .verify(BOUND);
            StepVerifier.create(payments.recorded(payments.pay("k-1")).subscribeOn(Schedulers.parallel()))
                .expectNext("receipt-1")
                .expectComplete()
                .verify(BOUND);

            assertThat(payments.calls()).isOne();
            assertThat(payments.methodThreads()).singleElement().satisfies(RedisMonoIdempotencyTests::executorThread);
            assertThat(payments.emittingThreads()).as("the claim's and the replay's thread")
                .hasSize(2)
                .allSatisfy(RedisMonoIdempotencyTests::executorThread);
            assertThat(entry()).containsEntry("state", "COMPLETED")
                .containsEntry("value", "\"receipt-1\"")
                .containsEntry("type", String.class.getName());
        });
    }

    @Test
    void emptyMonoIsStoredInRedisAndReplayedAsEmpty() {
        this.contextRunner.run((context) -> {
            ReactivePayments payments = context.getBean(ReactivePayments.class);

            StepVerifier.create(payments.refund("k-1").subscribeOn(Schedulers.parallel()))
                .expectComplete()
                .verify(BOUND);
            StepVerifier.create(payments.refund("k-1").subscribeOn(Schedulers.parallel()))
                .expectComplete()
                .verify(BOUND);

            assertThat(payments.calls()).isOne();
            assertThat(entry()).containsEntry("state", "COMPLETED");
        });
    }

    @Test
    void disposingASubscriptionOnAParallelThreadReleasesTheClaimInRedis() {
        this.contextRunner.run((context) -> {
            ReactivePayments payments = context.getBean(ReactivePayments.class);

            StepVerifier.create(payments.hanging("k-1").subscribeOn(Schedulers.parallel()))
                .then(() -> await().atMost(BOUND).until(() -> "IN_PROGRESS".equals(entry().get("state"))))
                .thenCancel()
                .verify(BOUND);

            await().atMost(BOUND).until(() -> redis.template().keys("payments:idem:*").isEmpty());
            assertThat(payments.cancellations()).isOne();
            assertThat(payments.methodThreads()).singleElement().satisfies(RedisMonoIdempotencyTests::executorThread);
        });
    }

    @Test
    void lastGoodValueInRedisIsReadOnTheExecutorWhenTheFailedCallWasSubscribedOnAParallelThread() {
        this.contextRunner.run((context) -> {
            ReactivePayments payments = context.getBean(ReactivePayments.class);
            StepVerifier.create(payments.balance("acct").subscribeOn(Schedulers.parallel()))
                .expectNext("balance-1")
                .expectComplete()
                .verify(BOUND);
            await().atMost(BOUND).until(() -> redis.template().keys("payments:lastgood:*").size() == 1);
            payments.down();

            StepVerifier.create(payments.recorded(payments.balance("acct")).subscribeOn(Schedulers.parallel()))
                .expectNext("balance-1")
                .expectComplete()
                .verify(BOUND);

            assertThat(payments.emittingThreads()).singleElement().satisfies(RedisMonoIdempotencyTests::executorThread);
            assertThat(payments.methodThreads()).hasSize(2).allSatisfy(RedisMonoIdempotencyTests::executorThread);
        });
    }

    @Test
    void callWhosePipelineHasNoStoreThatMayBlockStartsOnTheParallelThread() {
        this.contextRunner.run((context) -> {
            ReactivePayments payments = context.getBean(ReactivePayments.class);

            StepVerifier.create(payments.quote().subscribeOn(Schedulers.parallel()))
                .expectNext("quote")
                .expectComplete()
                .verify(BOUND);

            assertThat(payments.methodThreads()).singleElement()
                .satisfies((thread) -> assertThat(thread).startsWith("parallel-"));
        });
    }

    private static void executorThread(String thread) {
        assertThat(thread).startsWith("store-step-");
    }

    private static Map<Object, Object> entry() {
        Set<String> keys = redis.template().keys("payments:idem:*");
        assertThat(keys).hasSize(1);
        return redis.template().opsForHash().entries(keys.iterator().next());
    }

    private static ExecutorService storeSteps() {
        AtomicInteger count = new AtomicInteger();
        return Executors.newFixedThreadPool(2, (task) -> {
            Thread thread = new Thread(task, "store-step-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Methods returning a {@code Mono}, which record the threads the method runs on.
     */
    static class ReactivePayments {

        private final AtomicInteger calls = new AtomicInteger();

        private final AtomicInteger cancellations = new AtomicInteger();

        private final List<String> methodThreads = new CopyOnWriteArrayList<>();

        private final List<String> emittingThreads = new CopyOnWriteArrayList<>();

        private volatile boolean down;

        int calls() {
            return this.calls.get();
        }

        int cancellations() {
            return this.cancellations.get();
        }

        List<String> methodThreads() {
            return this.methodThreads;
        }

        List<String> emittingThreads() {
            return this.emittingThreads;
        }

        void down() {
            this.down = true;
        }

        <T> Mono<T> recorded(Mono<T> call) {
            return call.doOnNext((value) -> this.emittingThreads.add(Thread.currentThread().getName()));
        }

        private int called() {
            this.methodThreads.add(Thread.currentThread().getName());
            return this.calls.incrementAndGet();
        }

        @Idempotent(key = "#key")
        public Mono<String> pay(String key) {
            return Mono.just("receipt-" + called());
        }

        @Idempotent(key = "#key")
        public Mono<String> refund(String key) {
            called();
            return Mono.empty();
        }

        @Idempotent(key = "#key")
        public Mono<String> hanging(String key) {
            called();
            return Mono.<String>never().doOnCancel(this.cancellations::incrementAndGet);
        }

        @Retryable(maxAttempts = 1)
        @Fallback(lastGood = "1h")
        public Mono<String> balance(String account) {
            int call = called();
            return this.down ? Mono.error(new IOException("ledger down")) : Mono.just("balance-" + call);
        }

        @Retryable(maxAttempts = 1)
        public Mono<String> quote() {
            called();
            return Mono.just("quote");
        }

    }

}
