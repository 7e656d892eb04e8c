package dev.resilience.redis;

import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.EncodedResult;
import dev.resilience.core.idempotency.IdempotencyResultNotStorableException;
import dev.resilience.core.idempotency.IdempotencyResultUnavailableException;
import dev.resilience.core.idempotency.IdempotencyStoreException;
import dev.resilience.core.idempotency.NotReplayableResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class RedisIdempotencyStoreTests {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private static final Duration SHORT = Duration.ofMillis(300);

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private LettuceConnectionFactory connections;

    private StringRedisTemplate template;

    private RedisIdempotencyStore store;

    @BeforeEach
    void createStore() {
        this.connections = redis.connectionFactory();
        this.template = new StringRedisTemplate(this.connections);
        this.store = new RedisIdempotencyStore(this.template, JsonMapper.builder().build(), "idem:");
    }

    @AfterEach
    void closeConnections() {
        this.connections.destroy();
    }

    @Test
    void claimOfNewKeyIsAcquiredWithATokenNoOtherClaimOrStoreHands() {
        RedisIdempotencyStore otherStore = new RedisIdempotencyStore(this.template, JsonMapper.builder().build(),
                "idem:");

        String first = acquire("k1", LEASE);
        String second = acquire("k2", LEASE);
        String fromOtherStore = ((ClaimResult.Acquired) otherStore.claim("k3", "f", LEASE)).ownerToken();

        assertThat(first).matches("[0-9a-f-]{36}-1");
        assertThat(second).isEqualTo(first.substring(0, 37) + "2");
        assertThat(fromOtherStore.substring(0, 36)).isNotEqualTo(first.substring(0, 36));
    }

    @Test
    void inProgressEntryIsOneHashUnderThePrefixThatExpiresWithTheLease() {
        String token = acquire("k", LEASE);

        Map<Object, Object> entry = this.template.opsForHash().entries("idem:k");
        assertThat(entry).containsEntry("state", "IN_PROGRESS")
            .containsEntry("owner", token)
            .containsEntry("fingerprint", "f")
            .containsOnlyKeys("state", "owner", "fingerprint");
        assertThat(this.template.getExpire("idem:k", TimeUnit.MILLISECONDS)).isBetween(LEASE.toMillis() - 5_000,
                LEASE.toMillis());
    }

    @Test
    void completedEntryKeepsTheJsonAndTypeAndExpiresWithTheTtl() {
        String token = acquire("k", LEASE);

        assertThat(this.store.complete("k", token, "paid", Duration.ofHours(1))).isTrue();

        Map<Object, Object> entry = this.template.opsForHash().entries("idem:k");
        assertThat(entry).containsEntry("state", "COMPLETED")
            .containsEntry("value", "\"paid\"")
            .containsEntry("type", "java.lang.String");
        assertThat(this.template.getExpire("idem:k", TimeUnit.MILLISECONDS))
            .isBetween(Duration.ofHours(1).toMillis() - 5_000, Duration.ofHours(1).toMillis());
    }

    @Test
    void claimWhileInProgressReportsWhenTheLeaseExpires() {
        Instant before = Instant.now();
        acquire("k", LEASE);
        Instant after = Instant.now();

        ClaimResult result = this.store.claim("k", "f", LEASE);

        assertThat(result).isInstanceOf(ClaimResult.InProgress.class);
        assertThat(((ClaimResult.InProgress) result).leaseExpiresAt()).isBetween(before.plus(LEASE).minusSeconds(1),
                after.plus(LEASE).plusSeconds(1));
    }

    @Test
    void claimAfterCompletionReplaysTheValue() {
        Receipt receipt = new Receipt("o-1", 1250, Instant.parse("2026-01-02T03:04:05.123Z"));
        String token = acquire("k", LEASE);
        this.store.complete("k", token, receipt, LEASE);

        assertThat(replay("k", Receipt.class)).isEqualTo(receipt);
    }

    @Test
    void claimAfterCompletionWithNullReplaysNull() {
        String token = acquire("k", LEASE);
        this.store.complete("k", token, null, LEASE);

        assertThat(replay("k", Receipt.class)).isNull();
        assertThat(replay("k", Object.class)).isNull();
    }

    @Test
    void claimWithAnotherFingerprintWhileInProgressIsMismatch() {
        acquire("k", LEASE);

        assertThat(this.store.claim("k", "other", LEASE)).isInstanceOf(ClaimResult.Mismatch.class);
    }

    @Test
    void claimWithAnotherFingerprintAfterCompletionIsMismatch() {
        this.store.complete("k", acquire("k", LEASE), "v", LEASE);

        assertThat(this.store.claim("k", "other", LEASE)).isInstanceOf(ClaimResult.Mismatch.class);
    }

    @Test
    void expiredLeaseLetsANewOwnerTakeOverAndRefusesTheStaleOwner() {
        String stale = acquire("k", SHORT);
        awaitGone("idem:k");

        String owner = acquire("k", LEASE);

        assertThat(owner).isNotEqualTo(stale);
        assertThat(this.store.release("k", stale)).isFalse();
        assertThat(this.store.complete("k", stale, "stale", LEASE)).isFalse();
        assertThat(this.store.claim("k", "f", LEASE)).isInstanceOf(ClaimResult.InProgress.class);
        assertThat(this.store.complete("k", owner, "fresh", LEASE)).isTrue();
        assertThat(this.store.complete("k", stale, "stale", LEASE)).isFalse();
        assertThat(this.store.release("k", stale)).isFalse();
        assertThat(replay("k", String.class)).isEqualTo("fresh");
    }

    @Test
    void expiredLeaseThatNobodyTookOverCannotCompleteBecauseItsEntryIsGone() {
        String token = acquire("k", SHORT);
        awaitGone("idem:k");

        assertThat(this.store.complete("k", token, "late", LEASE)).isFalse();
        assertThat(this.store.claim("k", "f", LEASE)).isInstanceOf(ClaimResult.Acquired.class);
    }

    @Test
    void expiredTtlMakesTheKeyNewAgain() {
        this.store.complete("k", acquire("k", LEASE), "v", SHORT);
        awaitGone("idem:k");

        assertThat(this.store.claim("k", "other", LEASE)).isInstanceOf(ClaimResult.Acquired.class);
    }

    @Test
    void releaseMakesTheKeyClaimableAgain() {
        String token = acquire("k", LEASE);

        assertThat(this.store.release("k", token)).isTrue();
        assertThat(this.template.hasKey("idem:k")).isFalse();
        assertThat(this.store.claim("k", "other", LEASE)).isInstanceOf(ClaimResult.Acquired.class);
    }

    @Test
    void releaseAndCompleteWithAWrongTokenChangeNothing() {
        String token = acquire("k", LEASE);

        assertThat(this.store.release("k", "wrong")).isFalse();
        assertThat(this.store.complete("k", "wrong", "v", LEASE)).isFalse();
        assertThat(this.template.opsForHash().entries("idem:k")).containsEntry("state", "IN_PROGRESS")
            .containsEntry("owner", token)
            .doesNotContainKey("value");
    }

    @Test
    void completedEntryCanNeitherBeCompletedAgainNorReleased() {
        String token = acquire("k", LEASE);
        this.store.complete("k", token, "first", LEASE);

        assertThat(this.store.complete("k", token, "second", LEASE)).isFalse();
        assertThat(this.store.release("k", token)).isFalse();
        assertThat(replay("k", String.class)).isEqualTo("first");
    }

    @Test
    void completeAndReleaseOfAnUnknownKeyAreRefusedAndWriteNothing() {
        assertThat(this.store.complete("k", "token", "v", LEASE)).isFalse();
        assertThat(this.store.release("k", "token")).isFalse();
        assertThat(this.template.hasKey("idem:k")).isFalse();
    }

    @Test
    void nonPositiveDurationsAreRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> this.store.claim("k", "f", Duration.ZERO));
        assertThatIllegalArgumentException()
            .isThrownBy(() -> this.store.complete("k", "t", "v", Duration.ofMillis(-1)));
    }

    @Test
    void hugeDurationsAreCappedInsteadOfOverflowing() {
        String token = acquire("k", Duration.ofSeconds(Long.MAX_VALUE));

        assertThat(this.store.complete("k", token, "v", Duration.ofSeconds(Long.MAX_VALUE))).isTrue();
        assertThat(replay("k", String.class)).isEqualTo("v");
    }

    @Test
    void redisErrorsAreStoreExceptionsNamingTheOperation() {
        this.template.opsForValue().set("idem:k", "not a hash");

        assertThatThrownBy(() -> this.store.claim("k", "f", LEASE)).isInstanceOf(IdempotencyStoreException.class)
            .hasMessageContaining("claim key 'k'");
        assertThatThrownBy(() -> this.store.complete("k", "t", "v", LEASE))
            .isInstanceOf(IdempotencyStoreException.class)
            .hasMessageContaining("complete key 'k'");
        assertThatThrownBy(() -> this.store.release("k", "t")).isInstanceOf(IdempotencyStoreException.class)
            .hasMessageContaining("release key 'k'");
    }

    @Test
    void garbageInAnEntryIsAStoreExceptionAndNeverAReplay() {
        this.template.opsForHash().putAll("idem:k", Map.of("state", "COMPLETED", "fingerprint", "f"));
        this.template.opsForHash()
            .putAll("idem:j",
                    Map.of("state", "COMPLETED", "fingerprint", "f", "value", "{oops", "type", "java.lang.String"));

        assertThatThrownBy(() -> this.store.claim("k", "f", LEASE)).isInstanceOf(IdempotencyStoreException.class)
            .hasMessageContaining("unexpected reply");
        ClaimResult.Completed completed = (ClaimResult.Completed) this.store.claim("j", "f", LEASE);
        assertThatThrownBy(() -> ((EncodedResult) completed.value()).decode(String.class))
            .isInstanceOf(IdempotencyResultUnavailableException.class)
            .hasMessageContaining("cannot be read");
    }

    @Test
    void valueThatCannotBeWrittenAsJsonIsNotStorableAndLeavesTheClaimAsItWas() {
        String token = acquire("k", LEASE);

        assertThatThrownBy(() -> this.store.complete("k", token, new Unwritable(), LEASE))
            .isInstanceOf(IdempotencyResultNotStorableException.class)
            .hasMessage("a " + Unwritable.class.getName() + " cannot be written as JSON")
            .hasRootCauseMessage("not loaded");
        assertThat(this.template.opsForHash().entries("idem:k")).containsEntry("state", "IN_PROGRESS")
            .containsEntry("owner", token)
            .doesNotContainKey("value");
    }

    @Test
    void notReplayableResultIsKeptUnderAReservedTypeAndComesBackAsOne() {
        String token = acquire("k", LEASE);

        assertThat(this.store.complete("k", token, new NotReplayableResult("too large"), LEASE)).isTrue();

        assertThat(this.template.opsForHash().entries("idem:k")).containsEntry("state", "COMPLETED")
            .containsEntry("value", "too large")
            .containsEntry("type", RedisIdempotencyStore.NOT_REPLAYABLE_TYPE);
        assertThat(this.store.claim("k", "f", LEASE))
            .isEqualTo(new ClaimResult.Completed(new NotReplayableResult("too large")));
    }

    @Test
    void concurrentClaimsOfOneKeyAcquireItOnce() throws Exception {
        int threads = 32;
        CountDownLatch gate = new CountDownLatch(1);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<ClaimResult>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                results.add(executor.submit(() -> {
                    gate.await();
                    return this.store.claim("k", "f", LEASE);
                }));
            }
            gate.countDown();
            long acquired = 0;
            for (Future<ClaimResult> result : results) {
                acquired += (result.get() instanceof ClaimResult.Acquired) ? 1 : 0;
                assertThat(result.get()).isNotInstanceOf(ClaimResult.Mismatch.class);
            }
            assertThat(acquired).isEqualTo(1);
        }
        finally {
            executor.shutdownNow();
        }
    }

    /** A value whose only property cannot be read. */
    public static final class Unwritable {

        public String getCard() {
            throw new IllegalStateException("not loaded");
        }

    }

    private String acquire(String key, Duration lease) {
        ClaimResult result = this.store.claim(key, "f", lease);
        assertThat(result).isInstanceOf(ClaimResult.Acquired.class);
        return ((ClaimResult.Acquired) result).ownerToken();
    }

    private Object replay(String key, Type type) {
        ClaimResult result = this.store.claim(key, "f", LEASE);
        assertThat(result).isInstanceOf(ClaimResult.Completed.class);
        return ((EncodedResult) ((ClaimResult.Completed) result).value()).decode(type);
    }

    private void awaitGone(String redisKey) {
        await().atMost(Duration.ofSeconds(3))
            .pollInterval(Duration.ofMillis(20))
            .until(() -> ":0".equals(redis.command("EXISTS " + redisKey)));
    }

}
