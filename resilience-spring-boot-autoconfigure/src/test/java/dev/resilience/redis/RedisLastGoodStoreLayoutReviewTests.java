package dev.resilience.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

import dev.resilience.core.lastgood.LastGoodValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Review finding on {@link RedisLastGoodStore}'s new layout of the time a value was
 * stored.
 */
class RedisLastGoodStoreLayoutReviewTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    /**
     * The store now writes the time a value was produced as 28 sortable digits, where the
     * release before wrote it as an ISO instant ({@code Instant.toString()}). Values are
     * kept for their TTL ({@code @Fallback(lastGood = "1h")}, say), so right after an
     * upgrade Redis holds values in the old layout: the new reader refuses each of them
     * as "not in the store's layout", and a call failing then is served no last good
     * value at all, though one was kept a minute ago, until a new success overwrites it.
     * (An instance still on the old release, during a rolling upgrade, likewise fails to
     * read every value the new ones write.)
     */
    @Test
    void valueKeptByThePreviousReleaseIsStillServed() {
        JsonResultCodec codec = new JsonResultCodec(JsonMapper.builder().build());
        Instant storedAt = Instant.parse("2026-01-01T00:00:00.123Z");
        String previousLayout = storedAt + "\n" + String.class.getName() + "\n" + codec.write("price-1", String.class);
        redis.template().opsForValue().set("quotes:lastgood:ETH", previousLayout, Duration.ofHours(1));
        RedisLastGoodStore store = new RedisLastGoodStore(redis.template(), codec, "quotes:lastgood:",
                Duration.ofSeconds(10), null);

        LastGoodValue value = store.get("ETH", String.class).orElseThrow();

        assertThat(value.value()).isEqualTo("price-1");
        assertThat(value.storedAt()).isEqualTo(storedAt);
    }

    /**
     * The sortable time is written with {@code String.format("%019d%09d", ...)}, which
     * uses the JVM's default locale: on a host whose locale has digits of its own
     * ({@code ar-EG}, {@code ar-SA}, {@code fa-IR}, ...) the prefix is 28 Arabic-Indic
     * digits, 56 bytes in UTF-8. {@code lastgood-put.lua} compares byte 29 and the first
     * 28 bytes, so it never recognizes the stored time and always overwrites: a write
     * that reaches Redis late (the case the compare exists for) brings back the older
     * value.
     */
    @Test
    void olderValueNeverReplacesANewerOneWhateverTheDefaultLocale() {
        Locale defaultLocale = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag("ar-EG"));
        try {
            RedisLastGoodStore store = new RedisLastGoodStore(redis.template(),
                    new JsonResultCodec(JsonMapper.builder().build()), "quotes:lastgood:", Duration.ofSeconds(10),
                    null);
            Instant older = Instant.parse("2026-01-01T00:00:00Z");
            Instant newer = older.plusSeconds(60);
            store.put("ETH", "price-2", String.class, newer, Duration.ofHours(1));
            // the older value's write reaches Redis late, after the newer one
            store.put("ETH", "price-1", String.class, older, Duration.ofHours(1));
            store.put("marker", "done", String.class, newer, Duration.ofHours(1));
            await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(redis.template().hasKey("quotes:lastgood:marker")).isTrue());

            assertThat(store.get("ETH", String.class)).map(LastGoodValue::value).contains("price-2");
        }
        finally {
            Locale.setDefault(defaultLocale);
        }
    }

}
