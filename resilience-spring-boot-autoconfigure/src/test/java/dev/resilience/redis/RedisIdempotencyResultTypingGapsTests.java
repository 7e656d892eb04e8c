package dev.resilience.redis;

import java.time.Duration;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.EncodedResult;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Review of {@link ResultTyping}: the store's own default typing must not lose results
 * that the application's mapper writes and reads, nor results stored before the typing
 * existed. Types that the application's mapper reads although they are interfaces (a
 * mapping a module registers, a static {@code @JsonCreator}, a mix-in such as Boot's
 * {@code @JsonMixin}) were replayed before; a replay that fails is a 409
 * {@code idempotency-result-unavailable}, and the key's method never runs again until the
 * entry expires.
 */
class RedisIdempotencyResultTypingGapsTests {

    private static final Duration LEASE = Duration.ofSeconds(30);

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    /**
     * {@code SimpleModule.addAbstractTypeMapping} is how an application tells Jackson
     * which class to build for an interface. Jackson then asks the default typing for
     * {@code withDefaultImpl(Cents.class)}, which {@code ResultTyping} does not override:
     * {@code InvalidDefinitionException: Sub-class dev.resilience.redis.ResultTyping (of class
     * DefaultTypeResolverBuilder) must override method 'withDefaultImpl'}. Every replay
     * fails.
     */
    @Test
    void interfaceMappedToAClassByAModuleOfTheApplicationReplays() {
        JsonMapper application = JsonMapper.builder()
            .addModule(new SimpleModule().addAbstractTypeMapping(Amount.class, Cents.class))
            .build();
        RedisIdempotencyStore store = new RedisIdempotencyStore(redis.template(), application, "idem:");
        Order order = new Order("o-1", new Cents(1250));

        String key = "k-mapped";
        ClaimResult claim = store.claim(key, "f", LEASE);
        assertThat(store.complete(key, ((ClaimResult.Acquired) claim).ownerToken(), order, Order.class, LEASE))
            .isTrue();

        assertThat(replay(store, key, Order.class)).isEqualTo(order);
    }

    /**
     * A result completed by the previous version (the application's JSON, no class ids)
     * of a record whose interface component the application reads through a static
     * {@code @JsonCreator}: the new typing demands an {@code @class} at that position
     * ({@code InvalidTypeIdException: ... missing type id property '@class' (for POJO property
     * 'total')}), so every key completed before a rolling upgrade stops replaying.
     */
    @Test
    void resultStoredBeforeTheTypingWithAnInterfaceReadByACreatorStillReplays() {
        JsonMapper application = JsonMapper.builder().build();
        RedisIdempotencyStore store = new RedisIdempotencyStore(redis.template(), application, "idem:");
        Invoice invoice = new Invoice("i-1", Money.of("EUR 12.50"));
        String key = storedAsBefore(application.writeValueAsString(invoice), Invoice.class);

        assertThat(replay(store, key, Invoice.class)).isEqualTo(invoice);
    }

    /**
     * The same with an interface the application reads through a mix-in (Boot's
     * {@code @JsonMixin}) that names its class with {@code @JsonDeserialize(as = ...)}:
     * {@code ResultTyping} looks for that annotation on the interface itself only.
     */
    @Test
    void resultStoredBeforeTheTypingWithAnInterfaceReadThroughAMixInStillReplays() {
        JsonMapper application = JsonMapper.builder().addMixIn(Amount.class, AmountMixIn.class).build();
        RedisIdempotencyStore store = new RedisIdempotencyStore(redis.template(), application, "idem:");
        Order order = new Order("o-2", new Cents(990));
        String key = storedAsBefore(application.writeValueAsString(order), Order.class);

        assertThat(replay(store, key, Order.class)).isEqualTo(order);
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

}
