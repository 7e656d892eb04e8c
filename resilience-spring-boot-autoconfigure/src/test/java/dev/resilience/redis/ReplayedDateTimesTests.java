package dev.resilience.redis;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A replayed date-time is the one the first call returned, in both stores alike: with its
 * offset and zone, and its nanoseconds, whatever the application's mapper does with
 * dates. The store's timeouts are generous: the first command of each context opens its
 * connection, which a busy machine may take seconds to do.
 */
class ReplayedDateTimesTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private ApplicationContextRunner contextRunner(String store) {
        return new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                            DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
            .withPropertyValues(redis.springProperties().toArray(String[]::new))
            .withPropertyValues(FingerprintSecret.PROPERTY, "resilience.idempotency.store=" + store,
                    "resilience.idempotency.store-timeout=30s", "spring.data.redis.timeout=30s")
            .withBean(Bookings.class);
    }

    @ParameterizedTest
    @ValueSource(strings = { "memory", "redis" })
    void replayKeepsTheOffsetAndZoneOfTheFirstResult(String store) {
        contextRunner(store).run((context) -> {
            Bookings bookings = context.getBean(Bookings.class);

            for (int i = 0; i < 2; i++) {
                assertThat((Object) bookings.offset("k-1")).isEqualTo(Bookings.OFFSET);
                assertThat((Object) bookings.zoned("k-2")).isEqualTo(Bookings.ZONED);
                assertThat((Object) bookings.utc("k-3")).isEqualTo(Bookings.UTC);
                assertThat(bookings.slot("k-4").getBody()).isEqualTo(Bookings.SLOT);
            }
            assertThat(bookings.runs()).isEqualTo(4);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = { "memory", "redis" })
    void replayIsTheFirstResultWhenTheApplicationWritesDatesAsTimestampsInMilliseconds(String store) {
        contextRunner(store)
            .withPropertyValues("spring.jackson.datatype.datetime.write-dates-as-timestamps=true",
                    "spring.jackson.datatype.datetime.write-date-timestamps-as-nanoseconds=false",
                    "spring.jackson.datatype.datetime.read-date-timestamps-as-nanoseconds=false")
            .run((context) -> {
                Bookings bookings = context.getBean(Bookings.class);

                for (int i = 0; i < 2; i++) {
                    assertThat((Object) bookings.zoned("k-1")).isEqualTo(Bookings.ZONED);
                    assertThat((Object) bookings.instant("k-2")).isEqualTo(Bookings.INSTANT);
                }
                assertThat(bookings.runs()).isEqualTo(2);
            });
    }

    public record Slot(String room, List<ZonedDateTime> starts) {
    }

    static class Bookings {

        static final OffsetDateTime OFFSET = OffsetDateTime.parse("2024-03-31T01:30:00.123456789+05:30");

        static final ZonedDateTime ZONED = ZonedDateTime.parse("2024-03-31T03:30:00+02:00[Europe/Paris]");

        static final ZonedDateTime UTC = ZonedDateTime.parse("2024-03-31T01:30:00Z[UTC]");

        static final Instant INSTANT = Instant.parse("2024-03-31T01:30:00.123456789Z");

        static final Slot SLOT = new Slot("r-1",
                List.of(ZONED, ZonedDateTime.parse("2024-07-01T09:00-04:00[America/New_York]")));

        private final AtomicInteger runs = new AtomicInteger();

        int runs() {
            return this.runs.get();
        }

        @Idempotent(key = "#key")
        public OffsetDateTime offset(String key) {
            this.runs.incrementAndGet();
            return OFFSET;
        }

        @Idempotent(key = "#key")
        public ZonedDateTime zoned(String key) {
            this.runs.incrementAndGet();
            return ZONED;
        }

        @Idempotent(key = "#key")
        public ZonedDateTime utc(String key) {
            this.runs.incrementAndGet();
            return UTC;
        }

        @Idempotent(key = "#key")
        public Instant instant(String key) {
            this.runs.incrementAndGet();
            return INSTANT;
        }

        @Idempotent(key = "#key")
        public ResponseEntity<Slot> slot(String key) {
            this.runs.incrementAndGet();
            return ResponseEntity.ok(SLOT);
        }

    }

}
