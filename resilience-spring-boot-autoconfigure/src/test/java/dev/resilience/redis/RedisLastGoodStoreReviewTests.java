package dev.resilience.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Review findings on {@link RedisLastGoodStore}'s writes sent without waiting.
 */
class RedisLastGoodStoreReviewTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final LettuceConnectionFactory connections = new LettuceConnectionFactory(
            new RedisStandaloneConfiguration("127.0.0.1", redis.port()),
            LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(60)).build());

    {
        this.connections.afterPropertiesSet();
        this.connections.start();
    }

    @AfterEach
    void thawAndClose() {
        redis.resume();
        this.connections.destroy();
    }

    /**
     * With a driver without a reactive API (Jedis), each write is a task on a pool of 16
     * threads, so two successive values of one key are written by two threads in whatever
     * order they get to Redis: when the older write is held up (here: taking a connection
     * from the pool, as a busy Jedis pool does), the newer value is written first and the
     * older one then overwrites it. The store then serves a value older than the last
     * good one, with its old {@code staleSince}, for the whole TTL.
     */
    @Test
    void blockingDriverNeverLetsAnOlderValueOverwriteANewerOneOfTheSameKey() throws Exception {
        CountDownLatch firstConnectionHeld = new CountDownLatch(1);
        CountDownLatch releaseFirstConnection = new CountDownLatch(1);
        BlockingConnectionFactory factory = new BlockingConnectionFactory(this.connections);
        factory.holdNext(firstConnectionHeld, releaseFirstConnection);
        RedisLastGoodStore store = new RedisLastGoodStore(new StringRedisTemplate(factory),
                new JsonResultCodec(JsonMapper.builder().build()), "quotes:lastgood:", Duration.ofSeconds(10), null);
        Instant older = Instant.parse("2026-01-01T00:00:00Z");
        Instant newer = older.plusSeconds(60);

        store.put("ETH", "price-1", String.class, older, Duration.ofHours(1));
        assertThat(firstConnectionHeld.await(10, TimeUnit.SECONDS)).isTrue();
        store.put("ETH", "price-2", String.class, newer, Duration.ofHours(1));
        await().atMost(Duration.ofSeconds(10))
            .untilAsserted(
                    () -> assertThat(redis.template().opsForValue().get("quotes:lastgood:ETH")).contains("price-2"));
        releaseFirstConnection.countDown();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(factory.closed()).hasValue(2));

        assertThat(store.failedWrites()).isZero();
        assertThat(redis.template().opsForValue().get("quotes:lastgood:ETH")).as("the last good value is the newer one")
            .contains("price-2");
    }

    /**
     * The store promises that at most {@value RedisLastGoodStore#MAX_WRITES_IN_FLIGHT}
     * writes wait for Redis at once, but a write's permit is given back when the store
     * timeout passes, while the command itself stays queued in the client (Lettuce keeps
     * it until its own command timeout, a minute by default) and is still carried out
     * when Redis answers again. So a Redis that hangs lets another 64 writes, each with
     * its value, pile up every store timeout: during an outage the client's queue grows
     * without the bound, and writes counted as lost land later.
     */
    @Test
    void writesThatTimedOutButAreStillQueuedInTheClientCountAgainstTheInFlightBound() {
        RedisLastGoodStore store = new RedisLastGoodStore(new StringRedisTemplate(this.connections),
                new JsonResultCodec(JsonMapper.builder().build()), "quotes:lastgood:", Duration.ofMillis(200), null);
        store.put("warm-up", "price", String.class, Instant.now(), Duration.ofHours(1));
        await().atMost(Duration.ofSeconds(10))
            .untilAsserted(() -> assertThat(redis.template().hasKey("quotes:lastgood:warm-up")).isTrue());

        redis.pause();
        int max = RedisLastGoodStore.MAX_WRITES_IN_FLIGHT;
        for (int i = 0; i < max; i++) {
            store.put("first-" + i, "price", String.class, Instant.now(), Duration.ofHours(1));
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(store.failedWrites()).isEqualTo(max));
        for (int i = 0; i < max; i++) {
            store.put("second-" + i, "price", String.class, Instant.now(), Duration.ofHours(1));
        }
        long skipped = store.skippedWrites();
        redis.resume();
        await().atMost(Duration.ofSeconds(10))
            .untilAsserted(() -> assertThat(redis.template().keys("quotes:lastgood:first-*")).hasSize(max));

        assertThat(skipped).as("writes beyond the %d still queued in the client are not sent", max).isEqualTo(max);
        assertThat(redis.template().keys("quotes:lastgood:second-*")).isEmpty();
    }

}
