package dev.resilience.redis;

import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.Optional;

import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.EncodedResult;
import dev.resilience.core.idempotency.IdempotencyResultUnavailableException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.ResolvableType;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every result goes through Redis as JSON and comes back as the type the replaying call
 * declares.
 */
class RedisIdempotencyResultJsonTests {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private static final Receipt RECEIPT = new Receipt("o-1", 1250, Instant.parse("2026-01-02T03:04:05.123456789Z"));

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static RedisIdempotencyStore store;

    @BeforeAll
    static void createStore() {
        store = new RedisIdempotencyStore(redis.template(), JsonMapper.builder().build(), "idem:");
    }

    @Test
    void recordWithAnInstantRoundTrips() {
        assertThat(roundTrip(RECEIPT, Receipt.class)).isEqualTo(RECEIPT);
    }

    @Test
    void listOfRecordsRoundTripsAsRecords() {
        List<Receipt> receipts = List.of(RECEIPT, new Receipt("o-2", 99, Instant.EPOCH));

        Object replayed = roundTrip(receipts, generic(List.class, Receipt.class));

        assertThat(replayed).isEqualTo(receipts);
        assertThat((List<?>) replayed).allSatisfy((element) -> assertThat(element).isInstanceOf(Receipt.class));
    }

    @Test
    void stringRoundTrips() {
        assertThat(roundTrip("receipt:o-1", String.class)).isEqualTo("receipt:o-1");
    }

    @Test
    void primitiveLongRoundTrips() {
        assertThat(roundTrip(1_234_567_890_123L, long.class)).isEqualTo(1_234_567_890_123L);
    }

    @Test
    void nullRoundTripsForAnyDeclaredType() {
        assertThat(roundTrip(null, Receipt.class)).isNull();
        assertThat(roundTrip(null, generic(List.class, Receipt.class))).isNull();
    }

    @Test
    void optionalRoundTripsPresentAndEmpty() {
        assertThat(roundTrip(Optional.of(RECEIPT), generic(Optional.class, Receipt.class)))
            .isEqualTo(Optional.of(RECEIPT));
        assertThat(roundTrip(Optional.empty(), generic(Optional.class, Receipt.class))).isEqualTo(Optional.empty());
    }

    @Test
    void responseEntityRoundTripsWithStatusHeadersAndTypedBody() {
        ResponseEntity<Receipt> response = ResponseEntity.status(HttpStatus.CREATED)
            .header("Location", "/orders/o-1")
            .header("X-Trace", "a", "b")
            .body(RECEIPT);

        Object replayed = roundTrip(response, generic(ResponseEntity.class, Receipt.class));

        assertThat(replayed).isInstanceOfSatisfying(ResponseEntity.class, (entity) -> {
            assertThat(entity.getStatusCode()).isEqualTo(HttpStatus.CREATED);
            assertThat(entity.getHeaders().get("Location")).containsExactly("/orders/o-1");
            assertThat(entity.getHeaders().get("X-Trace")).containsExactly("a", "b");
            assertThat(entity.getBody()).isEqualTo(RECEIPT);
        });
    }

    @Test
    void responseEntityWithoutBodyRoundTrips() {
        Object replayed = roundTrip(ResponseEntity.noContent().build(), generic(ResponseEntity.class, Receipt.class));

        assertThat(replayed).isEqualTo(ResponseEntity.noContent().build());
    }

    @Test
    void undeclaredTypeRefusesAStoredClassOutsideJavaLang() {
        assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
            .isThrownBy(() -> roundTrip(RECEIPT, Object.class))
            .withMessageContaining("resilience.idempotency.allowed-types");
        assertThat(roundTrip("text", Object.class)).isEqualTo("text");
    }

    @Test
    void jdkCollectionsUnderAnUndeclaredTypeAreReadAsTheirInterface() {
        Set<String> keyView = new TreeMap<>(Map.of("b", 2, "a", 1)).keySet();

        assertThat(roundTrip(List.of("a", "b", "c"), Object.class)).isInstanceOf(List.class)
            .isEqualTo(List.of("a", "b", "c"));
        assertThat(roundTrip(keyView, Object.class)).isInstanceOf(Set.class).isEqualTo(Set.of("a", "b"));
    }

    @Test
    void jdkListUnderAnIterableIsReadAsAListOfTheDeclaredElements() {
        List<Receipt> receipts = List.of(RECEIPT, new Receipt("o-2", 99, Instant.EPOCH));

        Object replayed = roundTrip(receipts, generic(Iterable.class, Receipt.class));

        assertThat(replayed).isInstanceOf(List.class).isEqualTo(receipts);
    }

    @Test
    void abstractGenericTypeIsReadAsTheStoredSubclassWithTheDeclaredGenerics() {
        FixedBatch<Receipt> batch = new FixedBatch<>();
        batch.setItems(List.of(RECEIPT));

        Object replayed = roundTrip(batch, generic(Batch.class, Receipt.class));

        assertThat(replayed).isInstanceOfSatisfying(FixedBatch.class,
                (fixed) -> assertThat(fixed.getItems()).singleElement().isEqualTo(RECEIPT));
    }

    @Test
    void resultsThatCannotBeDecodedAreUnavailableNeverAStoreError() {
        EncodedResult notASubtype = stored("{}", Receipt.class.getName());
        EncodedResult unknownClass = stored("{}", "com.example.Gone");
        EncodedResult badJson = stored("{\"items\":", FixedBatch.class.getName());

        assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
            .isThrownBy(() -> notASubtype.decode(Batch.class))
            .withMessageEndingWith("the stored dev.resilience.redis.Receipt is not a "
                    + "dev.resilience.redis.RedisIdempotencyResultJsonTests$Batch");
        assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
            .isThrownBy(() -> unknownClass.decode(Object.class))
            .withMessageEndingWith("the stored class com.example.Gone cannot be loaded");
        assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
            .isThrownBy(() -> badJson.decode(Batch.class))
            .withMessageContaining("cannot be read as dev.resilience.redis.RedisIdempotencyResultJsonTests$FixedBatch");
    }

    @Test
    void moduleIsUsableByAnyJsonMapper() {
        JsonMapper mapper = JsonMapper.builder().addModule(new ResponseEntityJacksonModule()).build();
        ResponseEntity<Receipt> response = ResponseEntity.accepted().body(RECEIPT);

        String json = mapper.writeValueAsString(response);

        assertThat(json).startsWith("{\"status\":202,\"headers\":{},\"body\":{\"orderId\":\"o-1\"");
        Object read = mapper.readValue(json,
                mapper.getTypeFactory().constructType(generic(ResponseEntity.class, Receipt.class)));
        assertThat(read).isEqualTo(response);
    }

    private static @Nullable Object roundTrip(@Nullable Object value, Type declared) {
        String key = "k-" + System.nanoTime();
        ClaimResult claim = store.claim(key, "f", LEASE);
        assertThat(store.complete(key, ((ClaimResult.Acquired) claim).ownerToken(), value, LEASE)).isTrue();
        ClaimResult replay = store.claim(key, "f", LEASE);
        return ((EncodedResult) ((ClaimResult.Completed) replay).value()).decode(declared);
    }

    private static EncodedResult stored(String json, String type) {
        String key = "k-" + System.nanoTime();
        redis.template()
            .opsForHash()
            .putAll("idem:" + key, Map.of("state", "COMPLETED", "fingerprint", "f", "value", json, "type", type));
        return (EncodedResult) ((ClaimResult.Completed) store.claim(key, "f", LEASE)).value();
    }

    private static Type generic(Class<?> type, Class<?> argument) {
        return ResolvableType.forClassWithGenerics(type, argument).getType();
    }

    /**
     * A batch of items: an abstract generic type.
     *
     * @param <T> the type of the items
     */
    public abstract static class Batch<T> {

        private List<T> items = List.of();

        public List<T> getItems() {
            return this.items;
        }

        public void setItems(List<T> items) {
            this.items = items;
        }

    }

    /**
     * A batch of a fixed size.
     *
     * @param <T> the type of the items
     */
    public static class FixedBatch<T> extends Batch<T> {

    }

}
