package dev.resilience.redis;

import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceMetricsAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.core.idempotency.IdempotencyResultUnavailableException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A result whose writing as JSON fails with an error rather than an exception (a getter
 * that recurses without end, a class whose initialization fails) is a result that cannot
 * be stored, in both stores alike: the first caller gets its value, the key is completed
 * as not replayable, and the method never runs again for it.
 */
class UnwritableResultsTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private ApplicationContextRunner contextRunner(String store) {
        return new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    ResilienceRedisAutoConfiguration.class, ResilienceMetricsAutoConfiguration.class,
                    DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
            .withPropertyValues(redis.springProperties().toArray(String[]::new))
            .withPropertyValues(FingerprintSecret.PROPERTY, "resilience.idempotency.store=" + store)
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withBean(Tickets.class);
    }

    @ParameterizedTest
    @ValueSource(strings = { "memory", "redis" })
    void resultWhoseGetterOverflowsTheStackIsReturnedOnceAndItsKeyIsNotReplayable(String store) {
        contextRunner(store).run((context) -> {
            Tickets tickets = context.getBean(Tickets.class);

            assertThat(tickets.recursive("k-1")).isInstanceOf(Recursive.class);
            assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
                .isThrownBy(() -> tickets.recursive("k-1"))
                .withMessageContaining(Recursive.class.getName() + " cannot be written as JSON");

            assertThat(tickets.runs()).isOne();
            assertOutcomes(context.getBean(MeterRegistry.class), "Tickets#recursive");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = { "memory", "redis" })
    void resultWhoseGetterFailsToInitializeAClassIsReturnedOnceAndItsKeyIsNotReplayable(String store) {
        contextRunner(store).run((context) -> {
            Tickets tickets = context.getBean(Tickets.class);

            assertThat(tickets.broken("k-1")).isInstanceOf(Broken.class);
            assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
                .isThrownBy(() -> tickets.broken("k-1"))
                .withMessageContaining(Broken.class.getName() + " cannot be written as JSON");

            assertThat(tickets.runs()).isOne();
            assertOutcomes(context.getBean(MeterRegistry.class), "Tickets#broken");
        });
    }

    private static void assertOutcomes(MeterRegistry meters, String name) {
        assertThat(count(meters, name, "executed")).isOne();
        assertThat(count(meters, name, "unavailable")).isOne();
        assertThat(count(meters, name, "in_progress")).isZero();
        assertThat(count(meters, name, "complete_failed")).isZero();
    }

    private static double count(MeterRegistry meters, String name, String outcome) {
        return meters.get("resilience.idempotency.requests")
            .tags("name", name, "outcome", outcome)
            .functionCounter()
            .count();
    }

    public static class Recursive {

        public int getDepth() {
            return getDepth() + 1;
        }

    }

    public static class Broken {

        public int getRate() {
            return Rates.RATE;
        }

    }

    static final class Rates {

        static final int RATE = Integer.parseInt("not a number");

        private Rates() {
        }

    }

    static class Tickets {

        private final AtomicInteger runs = new AtomicInteger();

        int runs() {
            return this.runs.get();
        }

        @Idempotent(key = "#key")
        public Recursive recursive(String key) {
            this.runs.incrementAndGet();
            return new Recursive();
        }

        @Idempotent(key = "#key")
        public Broken broken(String key) {
            this.runs.incrementAndGet();
            return new Broken();
        }

    }

}
