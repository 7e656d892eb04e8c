package dev.resilience.redis;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.aop.IdempotencyScopeResolver;
import dev.resilience.autoconfigure.DeadLetterRedriveAutoConfiguration;
import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.redrive.DeadLetterRedrive;
import dev.resilience.redrive.RedriveResult;
import dev.resilience.redrive.RedriveResult.DeadLetterState;
import dev.resilience.redrive.RedriveResult.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A dead letter kept in Redis by one instance of an application is re-driven by another:
 * the second context reads the letter, runs the call through its own proxy with the
 * arguments read back, and deletes the letter from Redis.
 */
class RedisDeadLetterRedriveTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final Shipping writer = new Shipping();

    private final Shipping redriver = new Shipping();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                DataRedisAutoConfiguration.class, DeadLetterRedriveAutoConfiguration.class))
        .withPropertyValues(redis.springProperties().toArray(String[]::new))
        .withPropertyValues(FingerprintSecret.PROPERTY)
        .withPropertyValues("spring.application.name=shop", "resilience.idempotency.store=redis",
                "resilience.dead-letter.store=redis", "resilience.retry.defaults.jitter=none",
                "resilience.retry.instances.shipping.max-attempts=2")
        .withBean(TimeSource.class, VirtualTimeSource::new);

    private final ApplicationContextRunner unscoped = this.contextRunner.withBean(IdempotencyScopeResolver.class,
            () -> IdempotencyScopeResolver.NONE);

    @Test
    void letterWrittenByOneInstanceIsRedrivenByAnother() {
        this.writer.down.set(true);
        Shipment shipment = new Shipment("s-1", List.of("lamp", "desk"), new BigDecimal("3.20"));
        this.unscoped.withBean(Shipping.class, () -> this.writer).run((first) -> {
            Shipping proxy = first.getBean(Shipping.class);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> proxy.ship(shipment));
        });
        this.unscoped.withBean(Shipping.class, () -> this.redriver).run((second) -> {
            DeadLetterStore store = second.getBean(DeadLetterStore.class);
            List<DeadLetter> letters = store.list(10);
            assertThat(letters).hasSize(1);
            String id = letters.get(0).id();

            RedriveResult result = second.getBean(DeadLetterRedrive.class).redrive(id);

            assertThat(result)
                .isEqualTo(new RedriveResult(id, Outcome.SUCCESS, "SUCCESS", 1, null, null, DeadLetterState.DELETED));
            assertThat(this.redriver.shipped).containsExactly(shipment);
            assertThat(store.find(id)).isEmpty();
            assertThat(store.size()).isZero();
        });
    }

    @Test
    void redriveOfWorkDoneSinceUnderTheSameKeyReplaysInsteadOfRunningTwice() {
        this.writer.down.set(true);
        Shipment shipment = new Shipment("s-2", List.of("chair"), BigDecimal.ONE);
        this.unscoped.withBean(Shipping.class, () -> this.writer).run((first) -> {
            Shipping proxy = first.getBean(Shipping.class);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> proxy.ship(shipment));
            this.writer.down.set(false);
            assertThat(proxy.ship(shipment)).isEqualTo("shipped s-2");
        });
        assertThat(this.writer.shipped).containsExactly(shipment, shipment, shipment);
        this.unscoped.withBean(Shipping.class, () -> this.redriver).run((second) -> {
            DeadLetterStore store = second.getBean(DeadLetterStore.class);
            String id = store.list(10).get(0).id();

            RedriveResult result = second.getBean(DeadLetterRedrive.class).redrive(id);

            assertThat(result.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.DELETED);
            assertThat(this.redriver.shipped).isEmpty();
            assertThat(store.size()).isZero();
        });
    }

    @Test
    void idempotentCallIsNotRedrivenWhileKeysAreScopedByCaller() {
        this.writer.down.set(true);
        Shipment shipment = new Shipment("s-3", List.of("lamp"), BigDecimal.TEN);
        ApplicationContextRunner callerScoped = this.contextRunner.withBean(IdempotencyScopeResolver.class,
                () -> () -> "alice");
        callerScoped.withBean(Shipping.class, () -> this.writer).run((first) -> {
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> first.getBean(Shipping.class).ship(shipment));
        });
        callerScoped.withBean(Shipping.class, () -> this.redriver).run((second) -> {
            DeadLetterStore store = second.getBean(DeadLetterStore.class);
            String id = store.list(10).get(0).id();

            RedriveResult result = second.getBean(DeadLetterRedrive.class).redrive(id);

            assertThat(result.outcome()).isEqualTo(Outcome.UNREADABLE);
            assertThat(result.error()).contains("idempotency keys are scoped by caller");
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
            assertThat(this.redriver.shipped).isEmpty();
            assertThat(store.find(id)).isPresent();
        });
    }

    record Shipment(String id, List<String> items, BigDecimal weight) {
    }

    static class Shipping {

        final AtomicBoolean down = new AtomicBoolean();

        final List<Shipment> shipped = new CopyOnWriteArrayList<>();

        @Retryable("shipping")
        @Idempotent(key = "#shipment.id")
        public String ship(Shipment shipment) throws IOException {
            this.shipped.add(shipment);
            if (this.down.get()) {
                throw new IOException("carrier down");
            }
            return "shipped " + shipment.id();
        }

    }

}
