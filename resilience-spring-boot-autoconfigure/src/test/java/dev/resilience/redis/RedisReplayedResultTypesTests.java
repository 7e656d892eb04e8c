package dev.resilience.redis;

import java.util.List;

import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceMetricsAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.IdempotencyResultUnavailableException;
import dev.resilience.redis.Shipments.Booking;
import dev.resilience.redis.Shipments.Parcel;
import dev.resilience.redis.Shipments.TruckBooking;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.domain.Page;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Results whose declared type does not say what to build (a sealed interface, an abstract
 * class, a generic container) are replayed from Redis as the class the first call
 * returned; a result that cannot be decoded, or could not be stored, is unavailable, and
 * the method never runs twice for its key.
 */
class RedisReplayedResultTypesTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withPropertyValues(FingerprintSecret.PROPERTY)
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                ResilienceRedisAutoConfiguration.class, ResilienceMetricsAutoConfiguration.class,
                DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
        .withPropertyValues("resilience.idempotency.store=redis")
        .withPropertyValues(redis.springProperties().toArray(String[]::new))
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean(Shipments.class, Shipments::new);

    @Test
    void sealedInterfaceResultIsReplayedAsTheRecordTheFirstCallReturned() {
        this.contextRunner.run((context) -> {
            Shipments shipments = context.getBean(Shipments.class);

            Parcel first = shipments.parcel("key-1");
            Parcel replayed = shipments.parcel("key-1");

            assertThat(replayed).isInstanceOf(Parcel.Letter.class)
                .isEqualTo(first)
                .isEqualTo(new Parcel.Letter("L-key-1", 20));
            assertThat(shipments.runs()).isOne();
            assertOutcomes(context, "Shipments#parcel", 1, 1, 0);
        });
    }

    @Test
    void abstractClassResultIsReplayedAsItsSubclass() {
        this.contextRunner.run((context) -> {
            Shipments shipments = context.getBean(Shipments.class);

            shipments.booking("key-1");
            Booking replayed = shipments.booking("key-1");

            assertThat(replayed).isInstanceOfSatisfying(TruckBooking.class, (truck) -> {
                assertThat(truck.getReference()).isEqualTo("B-key-1");
                assertThat(truck.getPlate()).isEqualTo("HH-RS-17");
            });
            assertThat(shipments.runs()).isOne();
            assertOutcomes(context, "Shipments#booking", 1, 1, 0);
        });
    }

    @Test
    void pageThatJacksonCannotRebuildIsUnavailableAndTheMethodDoesNotRunAgain() {
        this.contextRunner.run((context) -> {
            Shipments shipments = context.getBean(Shipments.class);

            Page<Receipt> first = shipments.receipts("key-1");

            assertThat(first.getContent()).extracting(Receipt::orderId).containsExactly("o-1");
            assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
                .isThrownBy(() -> shipments.receipts("key-1"))
                .withMessageContaining("org.springframework.data.domain.PageImpl<dev.resilience.redis.Receipt>");
            assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
                .isThrownBy(() -> shipments.receipts("key-1"));
            assertThat(shipments.runs()).isOne();
            assertOutcomes(context, "Shipments#receipts", 1, 0, 2);
        });
    }

    @Test
    void envelopeOfASealedTypeIsReplayedAsASuccessfulEnvelopeOfTheStoredRecord() {
        this.contextRunner.run((context) -> {
            Shipments shipments = context.getBean(Shipments.class);

            ExecutionResult<Parcel> first = shipments.parcelResult("key-1");
            ExecutionResult<Parcel> replayed = shipments.parcelResult("key-1");

            assertThat(first.replayed()).isFalse();
            assertThat(replayed.status()).isEqualTo(ExecutionStatus.SUCCESS);
            assertThat(replayed.replayed()).isTrue();
            assertThat(replayed.error()).isNull();
            assertThat(replayed.value()).isInstanceOf(Parcel.Crate.class).isEqualTo(new Parcel.Crate("C-key-1", 3));
            assertThat(shipments.runs()).isOne();
            assertOutcomes(context, "Shipments#parcelResult", 1, 1, 0);
        });
    }

    @Test
    void resultThatCannotBeWrittenAsJsonRunsOnceAndItsKeyIsUnavailableAfterwards() {
        this.contextRunner.run((context) -> {
            Shipments shipments = context.getBean(Shipments.class);

            assertThat(shipments.label("key-1").getId()).isEqualTo("LBL-key-1");
            assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
                .isThrownBy(() -> shipments.label("key-1"))
                .withMessageContaining("cannot be replayed")
                .withMessageContaining(Shipments.Label.class.getName() + " cannot be written as JSON");
            assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
                .isThrownBy(() -> shipments.label("key-1"));

            assertThat(shipments.runs()).isOne();
            assertOutcomes(context, "Shipments#label", 1, 0, 2);
            assertThat(redis.command(
                    "HGET idem:" + IdempotencyPolicy.of("Shipments#label", context.getBean(RedisIdempotencyStore.class))
                        .storeKey("", "key-1") + " type"))
                .isEqualTo("$15");
        });
    }

    @Test
    void pipelineReplaysASealedResultAsTheStoredRecordInItsEnvelope() {
        try (Pipelines pipelines = new Pipelines()) {
            ResiliencePipeline pipeline = pipelines.parcels();
            pipeline.execute(CallContext.idempotent("key-1", "fp"), () -> new Parcel.Letter("L-1", 20));

            ExecutionResult<Parcel> replayed = pipeline.execute(CallContext.idempotent("key-1", "fp"),
                    () -> new Parcel.Crate("never", 0));

            assertThat(replayed.status()).isEqualTo(ExecutionStatus.SUCCESS);
            assertThat(replayed.replayed()).isTrue();
            assertThat(replayed.value()).isEqualTo(new Parcel.Letter("L-1", 20));
        }
    }

    @Test
    void pipelineAnswersAStoredValueThatCannotBeDecodedWithARejectedEnvelope() {
        try (Pipelines pipelines = new Pipelines()) {
            ResiliencePipeline pipeline = pipelines.parcels();
            pipeline.execute(CallContext.idempotent("not-a-parcel", "fp"), () -> new Parcel.Letter("L-1", 20));
            pipeline.execute(CallContext.idempotent("unknown-class", "fp"), () -> new Parcel.Letter("L-2", 20));
            pipeline.execute(CallContext.idempotent("bad-json", "fp"), () -> new Parcel.Letter("L-3", 20));
            pipelines.template.opsForHash()
                .put("idem:" + IdempotencyPolicy.of("parcels", pipelines.store).storeKey("", "not-a-parcel"), "type",
                        Receipt.class.getName());
            pipelines.template.opsForHash()
                .put("idem:" + IdempotencyPolicy.of("parcels", pipelines.store).storeKey("", "unknown-class"), "type",
                        "com.example.Gone");
            pipelines.template.opsForHash()
                .put("idem:" + IdempotencyPolicy.of("parcels", pipelines.store).storeKey("", "bad-json"), "value",
                        "{\"id\":");

            for (String key : List.of("not-a-parcel", "unknown-class", "bad-json")) {
                ExecutionResult<Parcel> result = pipeline.execute(CallContext.idempotent(key, "fp"), () -> {
                    throw new AssertionError("ran again");
                });

                assertThat(result.status()).as(key).isEqualTo(ExecutionStatus.REJECTED);
                assertThat(result.replayed()).as(key).isFalse();
                assertThat(result.value()).as(key).isNull();
                assertThat(result.error()).as(key).isInstanceOf(IdempotencyResultUnavailableException.class);
            }
        }
    }

    private static void assertOutcomes(AssertableApplicationContext context, String name, double executed,
            double replayed, double unavailable) {
        MeterRegistry meters = context.getBean(MeterRegistry.class);
        assertThat(count(meters, name, "executed")).isEqualTo(executed);
        assertThat(count(meters, name, "replayed")).isEqualTo(replayed);
        assertThat(count(meters, name, "unavailable")).isEqualTo(unavailable);
        assertThat(count(meters, name, "store_error")).isZero();
        assertThat(count(meters, name, "in_progress")).isZero();
    }

    private static double count(MeterRegistry meters, String name, String outcome) {
        return meters.get("resilience.idempotency.requests")
            .tags("name", name, "outcome", outcome)
            .functionCounter()
            .count();
    }

    /**
     * Pipelines on a Redis store built by hand, as an application calling the engine
     * does.
     */
    private static final class Pipelines implements AutoCloseable {

        private final LettuceConnectionFactory connections = redis.connectionFactory();

        private final StringRedisTemplate template = new StringRedisTemplate(this.connections);

        private final RedisIdempotencyStore store = new RedisIdempotencyStore(this.template,
                JsonMapper.builder().build(), "idem:");

        ResiliencePipeline parcels() {
            return ResiliencePipeline.builder("parcels")
                .idempotency(IdempotencyPolicy.of("parcels", this.store).withResultType(Parcel.class))
                .build();
        }

        @Override
        public void close() {
            this.connections.destroy();
        }

    }

}
