package dev.resilience.autoconfigure;

import java.lang.reflect.Type;
import java.time.Duration;

import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DESIGN section 16, "Safe defaults say so": one INFO line at startup names the stores in
 * use and says that the in-memory ones are per instance.
 */
@ExtendWith(OutputCaptureExtension.class)
class ResilienceStoresReportTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withPropertyValues(FingerprintSecret.PROPERTY);

    private final ApplicationContextRunner redisContextRunner = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                        DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withPropertyValues(FingerprintSecret.PROPERTY);

    @Test
    void memoryDefaultsSayOnceThatTheyArePerInstance(CapturedOutput output) {
        this.contextRunner.run((context) -> assertThat(output.getOut())
            .containsOnlyOnce("Resilience stores: idempotency in memory (InMemoryIdempotencyStore), dead letters in "
                    + "memory (InMemoryDeadLetterStore). The in-memory idempotency and dead-letter stores are per "
                    + "instance: their entries are not shared between instances and are lost on restart "
                    + "(resilience.idempotency.store=redis and resilience.dead-letter.store=redis share them).")
            .contains("INFO"));
    }

    @Test
    void storeOfTheApplicationIsNamedByItsClassAndNoneIsSaidWhereDeadLettersAreOff(CapturedOutput output) {
        this.contextRunner.withBean(IdempotencyStore.class, OwnStore::new)
            .withPropertyValues("resilience.dead-letter.store=none")
            .run((context) -> assertThat(output.getOut())
                .containsOnlyOnce(
                        "Resilience stores: idempotency in " + OwnStore.class.getName() + ", dead letters none.")
                .doesNotContain("per instance"));
    }

    @Test
    void redisStoreIsNamedWithItsKeyPrefixAndTheMemoryOneIsStillPerInstance(CapturedOutput output) {
        this.redisContextRunner
            .withPropertyValues("resilience.idempotency.store=redis", "resilience.idempotency.key-prefix=orders:idem:")
            .run((context) -> assertThat(output.getOut()).containsOnlyOnce("Resilience stores: idempotency in Redis "
                    + "(RedisIdempotencyStore, key prefix 'orders:idem:'), dead letters in memory "
                    + "(InMemoryDeadLetterStore). The in-memory dead-letter store is per instance: its entries are "
                    + "not shared between instances and are lost on restart (resilience.dead-letter.store=redis "
                    + "shares them)."));
    }

    @Test
    void storesInRedisSayNothingOfInstances(CapturedOutput output) {
        this.redisContextRunner
            .withPropertyValues("resilience.idempotency.store=redis", "resilience.dead-letter.store=redis")
            .run((context) -> assertThat(output.getOut())
                .containsOnlyOnce("Resilience stores: idempotency in Redis " + "(RedisIdempotencyStore, key prefix '")
                .contains("), dead letters in Redis (RedisDeadLetterStore, key prefix '")
                .doesNotContain("per instance"));
    }

    static final class OwnStore implements IdempotencyStore {

        @Override
        public ClaimResult claim(String key, String fingerprint, Duration lease) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean complete(String key, String ownerToken, @Nullable Object value, Duration ttl) {
            return false;
        }

        @Override
        public boolean complete(String key, String ownerToken, @Nullable Object value, Type type, Duration ttl) {
            return false;
        }

        @Override
        public boolean release(String key, String ownerToken) {
            return false;
        }

    }

}
