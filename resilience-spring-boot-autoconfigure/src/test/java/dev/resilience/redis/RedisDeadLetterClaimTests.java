package dev.resilience.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterClaim;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.awaitility.Awaitility.await;

/**
 * Claims of dead letters in Redis, as two instances of an application sharing it see
 * them.
 */
class RedisDeadLetterClaimTests {

    private static final Duration LEASE = Duration.ofMinutes(10);

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final List<LettuceConnectionFactory> connections = new ArrayList<>();

    private final RedisDeadLetterStore first = newStore();

    private final RedisDeadLetterStore second = newStore();

    @AfterEach
    void closeConnections() {
        this.connections.forEach(LettuceConnectionFactory::destroy);
    }

    @Test
    void claimedLetterStaysListedAndNoOtherInstanceClaimsIt() {
        this.first.write(deadLetter("a"));

        DeadLetterClaim claim = this.first.claim("a", LEASE).orElseThrow();

        assertThat(claim.deadLetter()).isEqualTo(deadLetter("a"));
        assertThat(this.second.find("a")).contains(deadLetter("a"));
        assertThat(this.second.list(10)).containsExactly(deadLetter("a"));
        assertThat(this.second.claim("a", LEASE)).isEmpty();
        assertThat(this.first.claim("a", LEASE)).isEmpty();
        assertThat(this.second.claim("unknown", LEASE)).isEmpty();
        assertThat(redis.command("EXISTS {resilience:deadletters}:claim:unknown")).isEqualTo(":0");
    }

    @Test
    void completeDeletesTheLetterAndItsClaim() {
        this.first.write(deadLetter("a"));

        assertThat(this.first.claim("a", LEASE).orElseThrow().complete()).isTrue();

        assertThat(this.second.find("a")).isEmpty();
        assertThat(redis.command("EXISTS {resilience:deadletters}:claim:a")).isEqualTo(":0");
    }

    @Test
    void releaseKeepsTheLetterForAnotherInstanceToClaim() {
        this.first.write(deadLetter("a"));

        this.first.claim("a", LEASE).orElseThrow().release();

        assertThat(this.second.find("a")).contains(deadLetter("a"));
        assertThat(this.second.claim("a", LEASE)).isPresent();
    }

    @Test
    void claimOfAnInstanceThatDiedRunsOutAfterItsLease() {
        this.first.write(deadLetter("a"));
        assertThat(this.first.claim("a", Duration.ofMillis(200))).isPresent();
        assertThat(this.second.claim("a", LEASE)).isEmpty();

        await().atMost(Duration.ofSeconds(10)).until(() -> this.second.claim("a", LEASE).isPresent());

        assertThat(this.second.find("a")).contains(deadLetter("a"));
    }

    @Test
    void claimThatRanOutNeverEndsTheClaimTakenAfterIt() {
        this.first.write(deadLetter("a"));
        DeadLetterClaim stale = this.first.claim("a", Duration.ofMillis(200)).orElseThrow();
        await().atMost(Duration.ofSeconds(10)).until(() -> this.second.claim("a", LEASE).isPresent());

        stale.release();

        assertThat(this.first.claim("a", LEASE)).as("the second instance's claim still holds").isEmpty();
    }

    @Test
    void claimWhileRedisIsDownThrowsAndReleaseDoesNot() {
        this.first.write(deadLetter("a"));
        DeadLetterClaim claim = this.first.claim("a", LEASE).orElseThrow();
        redis.stop();
        try {
            assertThatExceptionOfType(DataAccessException.class).isThrownBy(() -> this.second.claim("a", LEASE));
            assertThatNoException().isThrownBy(claim::release);
        }
        finally {
            redis.start();
        }
    }

    @Test
    void leaseShorterThanAMillisecondIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> this.first.claim("a", Duration.ofNanos(999_999)));
    }

    private RedisDeadLetterStore newStore() {
        LettuceConnectionFactory factory = redis.connectionFactory();
        this.connections.add(factory);
        return new RedisDeadLetterStore(new StringRedisTemplate(factory), JsonMapper.builder().build(),
                RedisDeadLetterStore.DEFAULT_NAME, 100);
    }

    private static DeadLetter deadLetter(String id) {
        return new DeadLetter(id, "payment", "PaymentService#pay", List.of("\"o-1\""), "java.io.IOException", "boom", 3,
                Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-01T00:00:01Z"), ExecutionStatus.ERROR);
    }

}
