package dev.resilience.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyInProgressException;
import dev.resilience.core.idempotency.IdempotencyKeyMismatchException;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.IdempotencyStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Two application contexts, as two instances of one application, share one Redis: a
 * payment is charged once per key whichever instance each duplicate reaches.
 */
class SharedRedisIdempotencyTests {

    private static final int THREADS_PER_INSTANCE = 64;

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final AtomicInteger executions = new AtomicInteger();

    private ApplicationContextRunner instance;

    @BeforeEach
    void describeInstance() {
        this.instance = new ApplicationContextRunner().withPropertyValues(FingerprintSecret.PROPERTY)
            .withConfiguration(
                    AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                            DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
            .withPropertyValues("resilience.idempotency.store=redis", "resilience.dead-letter.store=redis")
            .withPropertyValues(redis.springProperties().toArray(String[]::new))
            .withBean(PaymentService.class, () -> new PaymentService(this.executions));
    }

    @Test
    void concurrentDuplicatesOnTwoInstancesChargeOnceAndReplayOrReportInProgress() {
        this.instance.run((first) -> this.instance.run((second) -> {
            List<PaymentService> services = List.of(first.getBean(PaymentService.class),
                    second.getBean(PaymentService.class));

            Outcomes outcomes = payConcurrently(services, "key-1");

            System.out.printf("two instances x %d threads, one key: executed=%d replayed=%d in-progress=%d%n",
                    THREADS_PER_INSTANCE, this.executions.get(), outcomes.replayed(), outcomes.inProgress());
            assertThat(this.executions).hasValue(1);
            assertThat(outcomes.receipts()).hasSize(1 + outcomes.replayed()).containsOnly(outcomes.receipts().get(0));
            assertThat(1 + outcomes.replayed() + outcomes.inProgress()).isEqualTo(2 * THREADS_PER_INSTANCE);
            assertThat(outcomes.other()).isEmpty();
            assertThat(services.get(1).pay("order-1", 1250, "key-1")).isEqualTo(outcomes.receipts().get(0));
            assertThatExceptionOfType(IdempotencyKeyMismatchException.class)
                .isThrownBy(() -> services.get(0).pay("order-1", 9999, "key-1"));
            assertThat(this.executions).hasValue(1);
        }));
    }

    @Test
    void leaseThatExpiresWhileItsOwnerRunsIsTakenOverAndTheStaleResultIsRefused() {
        this.instance.withPropertyValues("resilience.idempotency.in-progress-ttl=400ms")
            .run((first) -> this.instance.run((second) -> {
                PaymentService owner = first.getBean(PaymentService.class);
                CountDownLatch release = owner.holdCharges();
                ExecutorService executor = Executors.newSingleThreadExecutor();
                try {
                    Future<Receipt> stale = executor.submit(() -> owner.pay("order-2", 500, "key-2"));
                    owner.awaitChargeStarted();
                    await().atMost(Duration.ofSeconds(3))
                        .pollInterval(Duration.ofMillis(20))
                        .until(() -> ":0".equals(redis.command("EXISTS idem:"
                                + IdempotencyPolicy.of("PaymentService#pay", first.getBean(IdempotencyStore.class))
                                    .storeKey("", "key-2"))));

                    Receipt fresh = second.getBean(PaymentService.class).pay("order-2", 500, "key-2");
                    release.countDown();
                    Receipt staleReceipt = stale.get();

                    assertThat(this.executions).hasValue(2);
                    assertThat(staleReceipt).isNotEqualTo(fresh);
                    assertThat(owner.pay("order-2", 500, "key-2")).isEqualTo(fresh);
                    assertThat(second.getBean(PaymentService.class).pay("order-2", 500, "key-2")).isEqualTo(fresh);
                    assertThat(this.executions).hasValue(2);
                }
                finally {
                    executor.shutdownNow();
                }
            }));
    }

    @Test
    void deadLetterWrittenByOneInstanceIsReadAndDeletedByTheOther() {
        this.instance.run((first) -> this.instance.run((second) -> {
            assertThatExceptionOfType(IllegalStateException.class)
                .isThrownBy(() -> first.getBean(PaymentService.class).notifyShipping("order-3"));

            DeadLetterStore otherStore = second.getBean(DeadLetterStore.class);
            assertThat(otherStore.list(10)).singleElement().satisfies((deadLetter) -> {
                assertThat(deadLetter.name()).isEqualTo("notify");
                assertThat(deadLetter.errorClass()).isEqualTo(IllegalStateException.class.getName());
                assertThat(deadLetter.attempts()).isEqualTo(2);
            });
            DeadLetter deadLetter = otherStore.list(1).get(0);
            assertThat(first.getBean(DeadLetterStore.class).find(deadLetter.id())).contains(deadLetter);
            assertThat(otherStore.delete(deadLetter.id())).isTrue();
            assertThat(first.getBean(DeadLetterStore.class).size()).isZero();
        }));
    }

    private Outcomes payConcurrently(List<PaymentService> services, String key) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        ExecutorService executor = Executors.newFixedThreadPool(services.size() * THREADS_PER_INSTANCE);
        try {
            List<Future<Receipt>> calls = new ArrayList<>();
            for (PaymentService service : services) {
                for (int i = 0; i < THREADS_PER_INSTANCE; i++) {
                    calls.add(executor.submit(() -> {
                        gate.await();
                        return service.pay("order-1", 1250, key);
                    }));
                }
            }
            gate.countDown();
            Outcomes outcomes = new Outcomes(new ArrayList<>(), new ArrayList<>());
            for (Future<Receipt> call : calls) {
                try {
                    outcomes.receipts().add(call.get());
                }
                catch (java.util.concurrent.ExecutionException ex) {
                    outcomes.errors().add(ex.getCause());
                }
            }
            return outcomes;
        }
        finally {
            executor.shutdownNow();
        }
    }

    private record Outcomes(List<Receipt> receipts, List<Throwable> errors) {

        int replayed() {
            return this.receipts.size() - 1;
        }

        long inProgress() {
            return this.errors.stream().filter(IdempotencyInProgressException.class::isInstance).count();
        }

        List<Throwable> other() {
            return this.errors.stream().filter((error) -> !(error instanceof IdempotencyInProgressException)).toList();
        }
    }

}
