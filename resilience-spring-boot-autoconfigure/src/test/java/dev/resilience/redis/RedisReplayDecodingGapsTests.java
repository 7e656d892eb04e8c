package dev.resilience.redis;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.redis.Shipments.Parcel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Replays from the Redis store of results whose declared type is a generic container of a
 * sealed type.
 *
 * <p>
 * DESIGN section 11: "A replay decodes into the stored concrete class when it is
 * assignable to the declared return type (interfaces, sealed and abstract types, generic
 * containers)". Only the outermost class is stored, so the elements of a
 * {@code List<Parcel>}, the body of a {@code ResponseEntity<Parcel>} or the content of an
 * {@code Optional<Parcel>} are read as the sealed interface, which Jackson cannot build:
 * the first call ran, and every retry of its key gets 409 "result unavailable" instead of
 * its result, until the ttl ends.
 */
class RedisReplayDecodingGapsTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withPropertyValues(FingerprintSecret.PROPERTY)
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ResilienceAutoConfiguration.class,
                ResilienceRedisAutoConfiguration.class, DataRedisAutoConfiguration.class,
                JacksonAutoConfiguration.class))
        .withPropertyValues("resilience.idempotency.store=redis")
        .withPropertyValues(redis.springProperties().toArray(String[]::new))
        .withBean(Parcels.class, Parcels::new);

    @Test
    void listOfSealedRecordsIsReplayed() {
        this.contextRunner.run((context) -> {
            Parcels parcels = context.getBean(Parcels.class);

            List<Parcel> first = parcels.list("key-1");
            Throwable replay = catchThrowable(() -> assertThat(parcels.list("key-1")).isEqualTo(first));

            assertThat(replay).as("replay of a List<Parcel>").isNull();
            assertThat(parcels.runs()).isOne();
        });
    }

    @Test
    void responseEntityOfASealedRecordIsReplayed() {
        this.contextRunner.run((context) -> {
            Parcels parcels = context.getBean(Parcels.class);

            ResponseEntity<Parcel> first = parcels.response("key-1");
            Throwable replay = catchThrowable(
                    () -> assertThat(parcels.response("key-1").getBody()).isEqualTo(first.getBody()));

            assertThat(replay).as("replay of a ResponseEntity<Parcel>").isNull();
            assertThat(parcels.runs()).isOne();
        });
    }

    @Test
    void optionalOfASealedRecordIsReplayed() {
        this.contextRunner.run((context) -> {
            Parcels parcels = context.getBean(Parcels.class);

            Optional<Parcel> first = parcels.optional("key-1");
            Throwable replay = catchThrowable(() -> assertThat(parcels.optional("key-1")).isEqualTo(first));

            assertThat(replay).as("replay of an Optional<Parcel>").isNull();
            assertThat(parcels.runs()).isOne();
        });
    }

    static class Parcels {

        private final AtomicInteger runs = new AtomicInteger();

        @Idempotent(key = "#key")
        public List<Parcel> list(String key) {
            this.runs.incrementAndGet();
            return List.of(new Parcel.Letter("L-" + key, 20), new Parcel.Crate("C-" + key, 3));
        }

        @Idempotent(key = "#key")
        public ResponseEntity<Parcel> response(String key) {
            this.runs.incrementAndGet();
            return ResponseEntity.status(201).body(new Parcel.Letter("L-" + key, 20));
        }

        @Idempotent(key = "#key")
        public Optional<Parcel> optional(String key) {
            this.runs.incrementAndGet();
            return Optional.of(new Parcel.Crate("C-" + key, 3));
        }

        int runs() {
            return this.runs.get();
        }

    }

}
