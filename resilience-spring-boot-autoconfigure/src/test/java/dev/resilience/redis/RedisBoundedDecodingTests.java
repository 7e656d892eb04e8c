package dev.resilience.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.EncodedResult;
import dev.resilience.core.idempotency.IdempotencyResultUnavailableException;
import dev.resilience.redis.decoding.Letter;
import dev.resilience.redis.decoding.Parcel;
import dev.resilience.redis.decoding.ParcelService;
import dev.resilience.redis.planted.ListedParcel;
import dev.resilience.redis.planted.PlantedParcel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.DefaultTyping;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsontype.BasicPolymorphicTypeValidator;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.ParameterizedTypeReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Stored data never chooses a class outside the declared type's package or
 * {@code resilience.idempotency.allowed-types}: a planted entry naming one is refused
 * before the class is instantiated, while the subtypes the application returns still
 * replay.
 */
class RedisBoundedDecodingTests {

    private static final Duration LEASE = Duration.ofSeconds(30);

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @BeforeEach
    void resetCounter() {
        PlantedParcel.touched.set(0);
    }

    @Test
    void plantedEntryNamingASubtypeOutsideTheAllowedSetIsRefusedWithoutInstantiatingIt() {
        RedisIdempotencyStore store = new RedisIdempotencyStore(redis.template(), JsonMapper.builder().build(),
                "idem:");
        complete(store, "k-1", new Letter("mine"), Parcel.class);
        plant("idem:k-1", "{\"label\":\"evil\"}", PlantedParcel.class.getName());

        assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
            .isThrownBy(() -> replay(store, "k-1", Parcel.class))
            .withMessageContaining(PlantedParcel.class.getName())
            .withMessageContaining("resilience.idempotency.allowed-types");
        assertThat(PlantedParcel.touched).hasValue(0);
    }

    @Test
    void plantedClassInsideAValueIsRefusedWithoutInstantiatingIt() {
        RedisIdempotencyStore store = new RedisIdempotencyStore(redis.template(), JsonMapper.builder().build(),
                "idem:");
        java.lang.reflect.Type parcels = new ParameterizedTypeReference<List<Parcel>>() {
        }.getType();
        complete(store, "k-2", List.of(new Letter("mine")), parcels);
        plant("idem:k-2", "[{\"@class\":\"" + PlantedParcel.class.getName() + "\",\"label\":\"evil\"}]",
                "java.util.ImmutableCollections$List12");

        assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
            .isThrownBy(() -> replay(store, "k-2", parcels));
        assertThat(PlantedParcel.touched).hasValue(0);
    }

    @Test
    void plantedEntryUnderObjectIsRefusedWithoutInstantiatingIt() {
        RedisIdempotencyStore store = new RedisIdempotencyStore(redis.template(), JsonMapper.builder().build(),
                "idem:");
        complete(store, "k-3", "mine", Object.class);
        plant("idem:k-3", "{\"label\":\"evil\"}", PlantedParcel.class.getName());

        assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
            .isThrownBy(() -> replay(store, "k-3", Object.class));
        assertThat(PlantedParcel.touched).hasValue(0);
    }

    @Test
    void applicationDefaultTypingIsNotInheritedByTheStore() {
        JsonMapper application = JsonMapper.builder()
            .activateDefaultTyping(BasicPolymorphicTypeValidator.builder().allowIfSubType(Object.class).build(),
                    DefaultTyping.NON_FINAL)
            .build();
        RedisIdempotencyStore store = new RedisIdempotencyStore(redis.template(), application, "idem:");
        complete(store, "k-4", Map.of("a", "b"), Object.class);
        plant("idem:k-4", "{\"a\":[\"" + PlantedParcel.class.getName() + "\",{\"label\":\"evil\"}]}",
                "java.util.HashMap");

        Object replayed = replayOrError(store, "k-4", Map.class);

        assertThat(replayed).isNotInstanceOf(PlantedParcel.class);
        assertThat(PlantedParcel.touched).hasValue(0);
    }

    @Test
    void subtypeInTheDeclaredTypesPackageStillReplays() {
        RedisIdempotencyStore store = new RedisIdempotencyStore(redis.template(), JsonMapper.builder().build(),
                "idem:");
        complete(store, "k-5", new Letter("mine"), Parcel.class);

        assertThat(replay(store, "k-5", Parcel.class)).isEqualTo(new Letter("mine"));
    }

    @Test
    void subtypeListedInAllowedTypesReplaysAndAnUnlistedOneIsRefused() {
        ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                            DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
            .withPropertyValues(redis.springProperties().toArray(String[]::new))
            .withPropertyValues(FingerprintSecret.PROPERTY)
            .withPropertyValues("resilience.idempotency.store=redis")
            .withBean(ParcelService.class, () -> new ParcelService(ListedParcel::new));

        contextRunner.withPropertyValues("resilience.idempotency.allowed-types=" + ListedParcel.class.getName())
            .run((context) -> {
                ParcelService parcels = context.getBean(ParcelService.class);
                assertThat(parcels.send("a", "key-a")).isEqualTo(new ListedParcel("a"));
                assertThat(parcels.send("a", "key-a")).isEqualTo(new ListedParcel("a"));
                assertThat(parcels.runs()).isOne();
            });
        contextRunner.run((context) -> {
            ParcelService parcels = context.getBean(ParcelService.class);
            assertThat(parcels.send("b", "key-b")).isEqualTo(new ListedParcel("b"));
            assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
                .isThrownBy(() -> parcels.send("b", "key-b"))
                .withMessageContaining(ListedParcel.class.getName());
            assertThat(parcels.runs()).isOne();
        });
    }

    private static void complete(RedisIdempotencyStore store, String key, Object value, java.lang.reflect.Type type) {
        ClaimResult.Acquired claim = (ClaimResult.Acquired) store.claim(key, "fp", LEASE);
        assertThat(store.complete(key, claim.ownerToken(), value, type, Duration.ofMinutes(5))).isTrue();
    }

    private static void plant(String redisKey, String json, String type) {
        redis.template().opsForHash().putAll(redisKey, Map.of("value", json, "type", type));
    }

    private static Object replay(RedisIdempotencyStore store, String key, java.lang.reflect.Type type) {
        ClaimResult.Completed completed = (ClaimResult.Completed) store.claim(key, "fp", LEASE);
        return ((EncodedResult) completed.value()).decode(type);
    }

    private static Object replayOrError(RedisIdempotencyStore store, String key, java.lang.reflect.Type type) {
        try {
            return replay(store, key, type);
        }
        catch (IdempotencyResultUnavailableException ex) {
            return ex;
        }
    }

}
