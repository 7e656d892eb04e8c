package dev.resilience.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.deadletter.DeadLetter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Review findings on the release that {@link RedisDeadLetterStore#claim} sends after a
 * claim that timed out.
 */
class RedisDeadLetterClaimReviewTests {

    private static final Duration LEASE = Duration.ofMinutes(10);

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final LettuceConnectionFactory connections = redis.connectionFactory();

    @AfterEach
    void close() {
        this.connections.destroy();
    }

    /**
     * A claim that timed out has its release sent "after it: queued behind it on the
     * connection, the release lands after it". That holds for one multiplexed connection
     * (Lettuce) only. With a driver without a reactive API (Jedis), each command is a
     * task on a pool of 16 threads, each with a connection of its own: when the claim is
     * held up (here: taking a connection from a busy pool), the release runs on another
     * thread and lands first, finding nothing to release; the claim lands afterwards and
     * holds the letter for the whole lease (10 minutes), although nobody re-drives it:
     * every re-drive meanwhile answers IN_PROGRESS.
     */
    @Test
    void releaseOfATimedOutClaimOnABlockingDriverLandsAfterTheClaim() {
        CountDownLatch claimHeld = new CountDownLatch(1);
        CountDownLatch releaseClaim = new CountDownLatch(1);
        BlockingConnectionFactory factory = new BlockingConnectionFactory(this.connections);
        AtomicInteger closed = factory.closed();
        RedisDeadLetterStore store = new RedisDeadLetterStore(new StringRedisTemplate(factory),
                JsonMapper.builder().build(), RedisDeadLetterStore.DEFAULT_NAME, 100, Duration.ofSeconds(1));
        new RedisDeadLetterStore(new StringRedisTemplate(this.connections), JsonMapper.builder().build(),
                RedisDeadLetterStore.DEFAULT_NAME, 100, Duration.ofSeconds(10))
            .write(deadLetter("a"));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(store.find("a")).isPresent());
        factory.holdNext(claimHeld, releaseClaim);

        assertThatExceptionOfType(DataAccessException.class).isThrownBy(() -> store.claim("a", LEASE));
        assertThat(claimHeld.getCount()).isZero();
        int closedBefore = closed.get();
        // the claim held up in the pool is sent, then the release sent after it
        releaseClaim.countDown();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(closed).hasValue(closedBefore + 2));

        assertThat(redis.command("EXISTS {resilience:deadletters}:claim:a")).as("a claim nobody holds").isEqualTo(":0");
        assertThat(store.claim("a", LEASE)).as("the letter can be re-driven").isPresent();
    }

    /**
     * A claim that timed out has its release sent without waiting, but at most
     * {@value RedisDeadLetterClaim#MAX_ABANDONED} such releases wait for Redis at once,
     * and their permits are held until Redis answers. During a Redis stall (a re-drive of
     * every letter, one after another, say), the releases after the sixteenth are dropped
     * silently, though their claims stay queued in the client and land when Redis answers
     * again: each such letter is then held for the whole lease (10 minutes) by a claim
     * nobody holds, and every re-drive of it answers IN_PROGRESS. Nothing is logged.
     */
    @Test
    void everyTimedOutClaimHasItsReleaseSentAfterIt() {
        LettuceConnectionFactory slowClient = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", redis.port()),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(60)).build());
        slowClient.afterPropertiesSet();
        slowClient.start();
        try {
            RedisDeadLetterStore store = new RedisDeadLetterStore(new StringRedisTemplate(slowClient),
                    JsonMapper.builder().build(), RedisDeadLetterStore.DEFAULT_NAME, 100, Duration.ofMillis(200));
            RedisDeadLetterStore writer = new RedisDeadLetterStore(new StringRedisTemplate(this.connections),
                    JsonMapper.builder().build(), RedisDeadLetterStore.DEFAULT_NAME, 100, Duration.ofSeconds(10));
            int letters = 17;
            for (int i = 0; i < letters; i++) {
                writer.write(deadLetter("l" + i));
            }
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(store.size()).isEqualTo(letters));
            // Redis knows the scripts of a claim and of its release, as after any
            // re-drive
            writer.write(deadLetter("warm-up"));
            writer.claim("warm-up", LEASE).orElseThrow().release();

            redis.pause();
            try {
                for (int i = 0; i < letters; i++) {
                    String id = "l" + i;
                    assertThatExceptionOfType(DataAccessException.class).isThrownBy(() -> store.claim(id, LEASE));
                }
            }
            finally {
                redis.resume();
            }
            await().atMost(Duration.ofSeconds(10))
                .untilAsserted(
                        () -> assertThat(redis.command("EXISTS {resilience:deadletters}:claim:l0")).isEqualTo(":0"));

            await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(redis.template().keys("{resilience:deadletters}:claim:*"))
                    .as("claims nobody holds")
                    .isEmpty());
        }
        finally {
            slowClient.destroy();
        }
    }

    private static DeadLetter deadLetter(String id) {
        return new DeadLetter(id, "payment", "PaymentService#pay", List.of("\"o-1\""), "java.io.IOException", "boom", 3,
                Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-01T00:00:01Z"), ExecutionStatus.ERROR);
    }

}
