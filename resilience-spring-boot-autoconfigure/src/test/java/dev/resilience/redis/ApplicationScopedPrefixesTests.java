package dev.resilience.redis;

import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Two applications on one Redis, told apart only by {@code spring.application.name}: the
 * default prefixes keep their idempotency entries and dead letters apart.
 */
class ApplicationScopedPrefixesTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final AtomicInteger executions = new AtomicInteger();

    private ApplicationContextRunner application(String name) {
        return new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                            DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
            .withPropertyValues(redis.springProperties().toArray(String[]::new))
            .withPropertyValues(FingerprintSecret.PROPERTY)
            .withPropertyValues("resilience.idempotency.store=redis", "resilience.dead-letter.store=redis",
                    "spring.application.name=" + name)
            .withBean(PaymentService.class, () -> new PaymentService(this.executions));
    }

    @Test
    void sameKeyOfTheSameMethodInTwoApplicationsRunsInEachAndReplaysOnlyItsOwn() {
        application("orders").run((orders) -> application("billing").run((billing) -> {
            PaymentService ordersPayments = orders.getBean(PaymentService.class);
            PaymentService billingPayments = billing.getBean(PaymentService.class);

            Receipt ordersReceipt = ordersPayments.pay("order-1", 1250, "key-1");
            Receipt billingReceipt = billingPayments.pay("order-1", 9999, "key-1");

            assertThat(this.executions).hasValue(2);
            assertThat(ordersPayments.pay("order-1", 1250, "key-1")).isEqualTo(ordersReceipt);
            assertThat(billingPayments.pay("order-1", 9999, "key-1")).isEqualTo(billingReceipt);
            assertThat(this.executions).hasValue(2);
            assertThat(redis.command("EVAL \"return #redis.call('KEYS', 'orders:idem:*')\" 0")).isEqualTo(":1");
            assertThat(redis.command("EVAL \"return #redis.call('KEYS', 'billing:idem:*')\" 0")).isEqualTo(":1");
        }));
    }

    @Test
    void deadLettersOfOneApplicationAreNeitherListedNorDeletedByTheOther() {
        application("orders").run((orders) -> application("billing").run((billing) -> {
            assertThatExceptionOfType(IllegalStateException.class)
                .isThrownBy(() -> orders.getBean(PaymentService.class).notifyShipping("order-3"));
            DeadLetterStore ordersLetters = orders.getBean(DeadLetterStore.class);
            DeadLetterStore billingLetters = billing.getBean(DeadLetterStore.class);
            DeadLetter letter = ordersLetters.list(10).get(0);

            assertThat(billingLetters.list(10)).isEmpty();
            assertThat(billingLetters.find(letter.id())).isEmpty();
            assertThat(billingLetters.delete(letter.id())).isFalse();
            assertThat(ordersLetters.find(letter.id())).contains(letter);
            assertThat(redis.command("EXISTS {orders:deadletters}:order")).isEqualTo(":1");
        }));
    }

    @Test
    void withoutAnApplicationNameTheDefaultPrefixesStay() {
        new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                            DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
            .withPropertyValues(redis.springProperties().toArray(String[]::new))
            .withPropertyValues(FingerprintSecret.PROPERTY)
            .withPropertyValues("resilience.idempotency.store=redis", "resilience.dead-letter.store=redis")
            .withBean(PaymentService.class, () -> new PaymentService(this.executions))
            .run((context) -> {
                assertThat(context.getBean(RedisIdempotencyStore.class)).hasFieldOrPropertyWithValue("keyPrefix",
                        "idem:");
                assertThatExceptionOfType(IllegalStateException.class)
                    .isThrownBy(() -> context.getBean(PaymentService.class).notifyShipping("order-4"));
                assertThat(redis.command("EXISTS {resilience:deadletters}:order")).isEqualTo(":1");
            });
    }

    @Test
    void deadLetterPrefixIsAProperty() {
        application("orders").withPropertyValues("resilience.dead-letter.key-prefix=shop:letters").run((context) -> {
            assertThatExceptionOfType(IllegalStateException.class)
                .isThrownBy(() -> context.getBean(PaymentService.class).notifyShipping("order-5"));
            assertThat(redis.command("EXISTS {shop:letters}:order")).isEqualTo(":1");
        });
    }

}
