package dev.resilience.redis;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.core.idempotency.IdempotencyInProgressException;
import dev.resilience.core.idempotency.IdempotencyOutcome;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.AfterEach;
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
 * A charge that ran, then could not be stored because Redis refused writes (out of memory
 * under {@code noeviction}): the caller gets its value, the key stays in progress so that
 * no repeat runs it again, and the completion is retried until Redis takes it, after
 * which the key replays.
 */
class RedisCompletionFailureTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final AtomicInteger charges = new AtomicInteger();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withPropertyValues(FingerprintSecret.PROPERTY)
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                        DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
        .withPropertyValues("resilience.idempotency.store=redis", "resilience.idempotency.in-progress-ttl=30s")
        .withPropertyValues(redis.springProperties().toArray(String[]::new))
        .withBean(Charges.class, () -> new Charges(this.charges));

    @AfterEach
    void acceptWritesAgain() {
        redis.command("CONFIG SET maxmemory 0");
    }

    @Test
    void resultThatRedisRefusedIsStoredByALaterTryAndNeverChargedTwice() {
        this.contextRunner.run((context) -> {
            Charges charges = context.getBean(Charges.class);
            ResilienceRegistry registry = context.getBean(ResilienceRegistry.class);

            assertThat(charges.charge("card-1")).isEqualTo("charge 1");

            assertThat(registry.statistics("Charges#charge")
                .idempotency("Charges#charge", IdempotencyOutcome.COMPLETE_FAILED)).isOne();
            assertThatExceptionOfType(IdempotencyInProgressException.class).isThrownBy(() -> charges.charge("card-1"));
            redis.command("CONFIG SET maxmemory 0");
            long writable = System.nanoTime();
            await().atMost(Duration.ofSeconds(20))
                .ignoreException(IdempotencyInProgressException.class)
                .untilAsserted(() -> assertThat(charges.charge("card-1")).isEqualTo("charge 1"));
            System.out.printf("FIGURES completion: replayed %d ms after Redis took writes again, charges %d%n",
                    Duration.ofNanos(System.nanoTime() - writable).toMillis(), this.charges.get());
            assertThat(this.charges).hasValue(1);
            assertThat(registry.statistics("Charges#charge").idempotency("Charges#charge", IdempotencyOutcome.REPLAYED))
                .isPositive();
        });
    }

    static class Charges {

        private final AtomicInteger charges;

        Charges(AtomicInteger charges) {
            this.charges = charges;
        }

        @Idempotent(key = "#key")
        public String charge(String key) {
            int charge = this.charges.incrementAndGet();
            assertThat(redis.command("CONFIG SET maxmemory 1")).isEqualTo("+OK");
            return "charge " + charge;
        }

    }

}
