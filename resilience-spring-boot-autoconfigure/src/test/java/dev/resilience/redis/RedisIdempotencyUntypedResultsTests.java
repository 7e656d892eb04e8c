package dev.resilience.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.EncodedResult;
import dev.resilience.core.idempotency.IdempotencyResultUnavailableException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.DefaultTyping;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.exc.InvalidTypeIdException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsontype.BasicPolymorphicTypeValidator;
import tools.jackson.databind.module.SimpleModule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Results without classes in their JSON: interfaces that the application's mapper reads
 * as declared are stored as the application writes them, and JSON stored before the store
 * kept classes is read as the application wrote it, never with a default typing of the
 * application's.
 */
class RedisIdempotencyUntypedResultsTests {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private static final AtomicBoolean initialized = new AtomicBoolean();

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @Test
    void interfaceReadByACreatorIsStoredAsTheApplicationWritesIt() {
        JsonMapper application = JsonMapper.builder().build();
        RedisIdempotencyStore store = new RedisIdempotencyStore(redis.template(), application, "idem:");
        Invoice invoice = new Invoice("i-1", Money.of("EUR 12.50"));

        String key = complete(store, invoice, Invoice.class);

        assertThat(storedJson(key)).isEqualTo(application.writeValueAsString(invoice)).doesNotContain("@class");
        assertThat(replay(store, key, Invoice.class)).isEqualTo(invoice);
    }

    @Test
    void interfaceMappedByAModuleOrAMixInIsStoredAsTheApplicationWritesIt() {
        Order order = new Order("o-1", new Cents(1250));
        for (JsonMapper application : List.of(JsonMapper.builder()
            .addModule(new SimpleModule().addAbstractTypeMapping(Amount.class, Cents.class))
            .build(), JsonMapper.builder().addMixIn(Amount.class, AmountMixIn.class).build())) {
            RedisIdempotencyStore store = new RedisIdempotencyStore(redis.template(), application, "idem:");

            String key = complete(store, order, Order.class);

            assertThat(storedJson(key)).isEqualTo(application.writeValueAsString(order));
            assertThat(replay(store, key, Order.class)).isEqualTo(order);
        }
    }

    @Test
    void propertyReadAsAClassByItsOwnAnnotationReplaysWhetherStoredBeforeTheTypingOrAfter() {
        JsonMapper application = JsonMapper.builder().build();
        RedisIdempotencyStore store = new RedisIdempotencyStore(redis.template(), application, "idem:");
        Transfer transfer = new Transfer("t-1", new Cents(990), "rent");

        String before = storedAsBefore(application.writeValueAsString(transfer), Transfer.class);
        String after = complete(store, transfer, Transfer.class);

        assertThat(replay(store, before, Transfer.class)).isEqualTo(transfer);
        assertThat(storedJson(after)).contains("\"@class\":\"" + Cents.class.getName() + "\"");
        assertThat(replay(store, after, Transfer.class)).isEqualTo(transfer);
    }

    @Test
    void resultStoredWithoutItsClassesIsNeverReadWithTheApplicationsDefaultTyping() {
        JsonMapper application = JsonMapper.builder()
            .activateDefaultTyping(BasicPolymorphicTypeValidator.builder().allowIfSubType(Object.class).build(),
                    DefaultTyping.JAVA_LANG_OBJECT)
            .build();
        RedisIdempotencyStore store = new RedisIdempotencyStore(redis.template(), application, "idem:");
        String key = storedAsBefore(
                "{\"id\":\"t-1\",\"amount\":{\"cents\":990},\"note\":[\"" + Tripwire.class.getName() + "\",{}]}",
                Transfer.class);

        Object replayed = replay(store, key, Transfer.class);

        assertThat(replayed)
            .isEqualTo(new Transfer("t-1", new Cents(990), List.of(Tripwire.class.getName(), Map.of())));
        assertThat(initialized).isFalse();
    }

    @Test
    void resultStoredBeforeTheTypingThatTheApplicationCannotReadEitherIsUnavailable() {
        RedisIdempotencyStore store = new RedisIdempotencyStore(redis.template(), JsonMapper.builder().build(),
                "idem:");
        String key = storedAsBefore("{\"id\":\"s-1\",\"parcel\":{\"weight\":3}}", Shipment.class);

        assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
            .isThrownBy(() -> replay(store, key, Shipment.class))
            .withMessageContaining("cannot be read as " + Shipment.class.getName())
            .havingCause()
            .isInstanceOf(InvalidTypeIdException.class)
            .satisfies((cause) -> assertThat(cause.getSuppressed()).hasSize(1));
    }

    private static String complete(RedisIdempotencyStore store, Object value, Class<?> declared) {
        String key = "k-" + System.nanoTime();
        ClaimResult claim = store.claim(key, "f", LEASE);
        assertThat(store.complete(key, ((ClaimResult.Acquired) claim).ownerToken(), value, declared, LEASE)).isTrue();
        return key;
    }

    /**
     * Writes an entry as the store wrote it before the typing: the application's JSON.
     */
    private static String storedAsBefore(String json, Class<?> type) {
        String key = "k-before-" + System.nanoTime();
        redis.template()
            .opsForHash()
            .putAll("idem:" + key,
                    Map.of("state", "COMPLETED", "fingerprint", "f", "value", json, "type", type.getName()));
        return key;
    }

    private static @Nullable Object replay(RedisIdempotencyStore store, String key, Class<?> declared) {
        return ((EncodedResult) ((ClaimResult.Completed) store.claim(key, "f", LEASE)).value()).decode(declared);
    }

    private static @Nullable String storedJson(String key) {
        return (String) redis.template().opsForHash().get("idem:" + key, "value");
    }

    interface Amount {

        long cents();

    }

    record Cents(long cents) implements Amount {
    }

    record Order(String id, Amount total) {
    }

    @JsonDeserialize(as = Cents.class)
    interface AmountMixIn {

    }

    /** An amount read as {@code Cents} because its property says so, not its type. */
    record Transfer(String id, @JsonDeserialize(as = Cents.class) Amount amount, Object note) {
    }

    /** A value type read from its text by a factory of the interface. */
    interface Money {

        @JsonValue
        String text();

        @JsonCreator
        static Money of(String text) {
            return new Text(text);
        }

    }

    record Text(String text) implements Money {
    }

    record Invoice(String id, Money total) {
    }

    /**
     * An interface that neither the application's mapper nor the store's reads as
     * declared.
     */
    sealed interface Parcel permits Crate {

    }

    record Crate(int weight) implements Parcel {
    }

    record Shipment(String id, Parcel parcel) {
    }

    /** Initializing it would be a side effect chosen by stored data. */
    static final class Tripwire {

        static {
            initialized.set(true);
        }

    }

}
