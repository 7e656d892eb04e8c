package dev.resilience.redis;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.core.idempotency.IdempotencyInProgressException;
import dev.resilience.core.idempotency.IdempotencyStoreException;
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
 * Redis fails under a running application: calls fail closed while it is down, and the
 * keys work again once it is back.
 */
class RedisOutageTests {

    private static final Duration LEASE = Duration.ofSeconds(1);

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final AtomicInteger executions = new AtomicInteger();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withPropertyValues(FingerprintSecret.PROPERTY)
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                        DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
        .withPropertyValues("resilience.idempotency.store=redis", "resilience.idempotency.in-progress-ttl=1s")
        .withPropertyValues(redis.springProperties().toArray(String[]::new))
        .withBean(PaymentService.class, () -> new PaymentService(this.executions));

    @Test
    void whileRedisIsDownCallsFailClosedAndAfterARestartNoKeyIsStuck() {
        this.contextRunner.run((context) -> {
            PaymentService payments = context.getBean(PaymentService.class);
            Receipt paid = payments.pay("order-1", 100, "key-1");

            redis.stop();
            assertThatExceptionOfType(IdempotencyStoreException.class)
                .isThrownBy(() -> payments.pay("order-2", 200, "key-2"))
                .withMessageContaining("claim");
            assertThatExceptionOfType(IdempotencyStoreException.class)
                .isThrownBy(() -> payments.pay("order-1", 100, "key-1"));
            assertThat(this.executions).hasValue(1);

            redis.start();
            Receipt afterRestart = await().atMost(Duration.ofSeconds(10))
                .ignoreException(IdempotencyStoreException.class)
                .until(() -> payments.pay("order-2", 200, "key-2"), (receipt) -> true);
            assertThat(this.executions).hasValue(2);
            assertThat(payments.pay("order-2", 200, "key-2")).isEqualTo(afterRestart);
            assertThat(this.executions).hasValue(2);

            Receipt forgotten = payments.pay("order-1", 100, "key-1");
            assertThat(forgotten).isNotEqualTo(paid);
            assertThat(this.executions).as("Redis restarted empty: a completed key is forgotten and runs again")
                .hasValue(3);
        });
    }

    @Test
    void claimThatTimedOutOnAFrozenRedisHoldsItsKeyForOneLeaseAtMost() {
        this.contextRunner.run((context) -> {
            PaymentService payments = context.getBean(PaymentService.class);

            redis.pause();
            assertThatExceptionOfType(IdempotencyStoreException.class)
                .isThrownBy(() -> payments.pay("order-4", 400, "key-4"))
                .withMessageContaining("claim");
            redis.resume();
            assertThat(this.executions).hasValue(0);

            Receipt receipt = await().atMost(LEASE.plusSeconds(5))
                .ignoreExceptionsMatching(
                        (ex) -> ex instanceof IdempotencyInProgressException || ex instanceof IdempotencyStoreException)
                .until(() -> payments.pay("order-4", 400, "key-4"), (paid) -> true);
            assertThat(this.executions).hasValue(1);
            assertThat(payments.pay("order-4", 400, "key-4")).isEqualTo(receipt);
        });
    }

    @Test
    void callWhoseCompletionTimedOutOnAFrozenRedisKeepsItsOutcomeAndTheCompletionLandsOnThaw() {
        this.contextRunner.run((context) -> {
            PaymentService payments = context.getBean(PaymentService.class);
            CountDownLatch release = payments.holdCharges();
            ExecutorService executor = Executors.newSingleThreadExecutor();
            try {
                Future<Receipt> call = executor.submit(() -> payments.pay("order-5", 500, "key-5"));
                payments.awaitChargeStarted();
                redis.pause();
                release.countDown();
                Receipt receipt = call.get();
                redis.resume();

                assertThat(receipt.orderId()).isEqualTo("order-5");
                assertThat(payments.pay("order-5", 500, "key-5")).isEqualTo(receipt);
                assertThat(this.executions).hasValue(1);
            }
            finally {
                executor.shutdownNow();
            }
        });
    }

}
