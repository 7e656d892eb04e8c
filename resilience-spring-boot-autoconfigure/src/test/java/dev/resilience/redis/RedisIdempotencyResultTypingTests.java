package dev.resilience.redis;

import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.EncodedResult;
import dev.resilience.core.idempotency.IdempotencyResultUnavailableException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;

import org.springframework.core.ResolvableType;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Results whose declared type holds interfaces or abstract classes, at any depth, go
 * through Redis with the classes their replays need and only those, and stored data never
 * names a class that the declared type does not allow at its position.
 */
class RedisIdempotencyResultTypingTests {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private static final Receipt RECEIPT = new Receipt("o-1", 1250, Instant.parse("2026-01-02T03:04:05Z"));

    private static final AtomicBoolean initialized = new AtomicBoolean();

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static RedisIdempotencyStore store;

    @BeforeAll
    static void createStore() {
        store = new RedisIdempotencyStore(redis.template(), JsonMapper.builder().addModule(moneyModule()).build(),
                "idem:");
    }

    @Test
    void listOfASealedTypeKeepsTheClassOfEachElement() {
        List<Item> items = List.of(new Book("b-1", 320), new Voucher("v-1", 50), Gift.WRAPPING);

        String key = complete(items, generic(List.class, Item.class));

        assertThat(storedJson(key)).isEqualTo("[{\"@class\":\"" + Book.class.getName()
                + "\",\"id\":\"b-1\",\"pages\":320}," + "{\"@class\":\"" + Voucher.class.getName()
                + "\",\"id\":\"v-1\",\"euros\":50}," + "[\"" + Gift.class.getName() + "\",\"WRAPPING\"]]");
        assertThat(replay(key, generic(List.class, Item.class))).isEqualTo(items);
    }

    @Test
    void sealedTypesInsideARecordRoundTrip() {
        Basket basket = new Basket("basket-1", new Book("b-1", 320), List.of(new Voucher("v-1", 50), Gift.RIBBON),
                Map.of("gift", Gift.WRAPPING), Optional.of(new Voucher("v-2", 10)));

        assertThat(replay(complete(basket, Basket.class), Basket.class)).isEqualTo(basket);
    }

    @Test
    void mapOfASealedTypeAndOptionalOfASealedTypeRoundTrip() {
        Map<String, Item> byId = Map.of("b-1", new Book("b-1", 320), "v-1", new Voucher("v-1", 50));
        Type mapType = ResolvableType.forClassWithGenerics(Map.class, String.class, Item.class).getType();

        assertThat(replay(complete(byId, mapType), mapType)).isEqualTo(byId);
        assertThat(replay(complete(Optional.of(Gift.RIBBON), generic(Optional.class, Item.class)),
                generic(Optional.class, Item.class)))
            .isEqualTo(Optional.of(Gift.RIBBON));
    }

    @Test
    void responseEntityWithAListOfASealedTypeAsItsBodyRoundTrips() {
        ResponseEntity<List<Item>> response = ResponseEntity.status(201)
            .header("Location", "/baskets/1")
            .body(List.of(new Book("b-1", 320), new Voucher("v-1", 50)));
        Type declared = ResolvableType
            .forClassWithGenerics(ResponseEntity.class, ResolvableType.forClassWithGenerics(List.class, Item.class))
            .getType();

        assertThat(replay(complete(response, declared), declared)).isEqualTo(response);
    }

    @Test
    void plainRecordsAreStoredAsTheApplicationWritesThem() {
        JsonMapper application = JsonMapper.builder().build();

        String record = complete(RECEIPT, Receipt.class);
        String list = complete(List.of(RECEIPT), generic(List.class, Receipt.class));

        assertThat(storedJson(record)).isEqualTo(application.writeValueAsString(RECEIPT)).doesNotContain("@class");
        assertThat(storedJson(list)).isEqualTo(application.writeValueAsString(List.of(RECEIPT)));
    }

    @Test
    void interfaceThatAModuleReadsKeepsTheModulesForm() {
        Price price = new Price("p-1", new Euros(1250));

        String key = complete(price, Price.class);

        assertThat(storedJson(key)).isEqualTo("{\"id\":\"p-1\",\"amount\":\"EUR 1250\"}");
        assertThat(replay(key, Price.class)).isEqualTo(price);
    }

    @Test
    void storedClassThatIsNotASubtypeOfTheDeclaredElementIsUnavailable() {
        String key = stored("[{\"@class\":\"" + Receipt.class.getName() + "\",\"orderId\":\"o-1\"}]");

        assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
            .isThrownBy(() -> replay(key, generic(List.class, Item.class)))
            .withMessageContaining("cannot be read as java.util.List<" + Item.class.getName() + ">");
    }

    @Test
    void storedClassIsCheckedBeforeItIsInitialized() {
        String key = stored("[{\"@class\":\"" + Tripwire.class.getName() + "\"}]");

        assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
            .isThrownBy(() -> replay(key, generic(List.class, Item.class)));
        assertThat(initialized).isFalse();
    }

    @Test
    void storedClassWithTypeArgumentsIsRefusedBeforeTheyAreLoaded() {
        String key = stored("[{\"@class\":\"" + Book.class.getName() + "<" + Tripwire.class.getName()
                + ">\",\"id\":\"b-1\",\"pages\":1}]");

        assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
            .isThrownBy(() -> replay(key, generic(List.class, Item.class)));
        assertThat(initialized).isFalse();
    }

    private static String complete(@Nullable Object value, Type declared) {
        String key = "k-" + System.nanoTime();
        ClaimResult claim = store.claim(key, "f", LEASE);
        assertThat(store.complete(key, ((ClaimResult.Acquired) claim).ownerToken(), value, declared, LEASE)).isTrue();
        return key;
    }

    private static String stored(String json) {
        String key = "k-" + System.nanoTime();
        redis.template()
            .opsForHash()
            .putAll("idem:" + key,
                    Map.of("state", "COMPLETED", "fingerprint", "f", "value", json, "type", List.class.getName()));
        return key;
    }

    private static @Nullable Object replay(String key, Type declared) {
        return ((EncodedResult) ((ClaimResult.Completed) store.claim(key, "f", LEASE)).value()).decode(declared);
    }

    private static @Nullable String storedJson(String key) {
        return (String) redis.template().opsForHash().get("idem:" + key, "value");
    }

    private static Type generic(Class<?> type, Class<?> argument) {
        return ResolvableType.forClassWithGenerics(type, argument).getType();
    }

    private static SimpleModule moneyModule() {
        return new SimpleModule().addSerializer(Money.class, new StdSerializer<>(Money.class) {
            @Override
            public void serialize(Money money, JsonGenerator generator, SerializationContext context) {
                generator.writeString(money.currency() + " " + money.cents());
            }
        }).addDeserializer(Money.class, new StdDeserializer<>(Money.class) {
            @Override
            public Money deserialize(JsonParser parser, DeserializationContext context) {
                return new Euros(Long.parseLong(parser.getString().substring("EUR ".length())));
            }
        });
    }

    /** Something in a basket: records and an enum. */
    sealed interface Item permits Book, Voucher, Gift {

    }

    record Book(String id, int pages) implements Item {
    }

    record Voucher(String id, int euros) implements Item {
    }

    enum Gift implements Item {

        WRAPPING, RIBBON

    }

    record Basket(String id, Item first, List<Item> items, Map<String, Item> extras, Optional<Item> spare) {
    }

    /** An amount that a module of the application writes and reads. */
    interface Money {

        String currency();

        long cents();

    }

    record Euros(long cents) implements Money {

        @Override
        public String currency() {
            return "EUR";
        }
    }

    record Price(String id, Money amount) {
    }

    /**
     * Not an {@code Item}: initializing it would be a side effect chosen by stored data.
     */
    static final class Tripwire {

        static {
            initialized.set(true);
        }

    }

}
