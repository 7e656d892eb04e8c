package dev.resilience.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

class RedisDeadLetterStoreTests {

    private static final Instant FIRST_ATTEMPT = Instant.parse("2026-01-01T00:00:00Z");

    private static final int CAPACITY = 3;

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final List<LettuceConnectionFactory> connections = new ArrayList<>();

    private RedisDeadLetterStore store;

    @BeforeEach
    void createStore() {
        this.store = newStore(CAPACITY);
    }

    @AfterEach
    void closeConnections() {
        this.connections.forEach(LettuceConnectionFactory::destroy);
    }

    @Test
    void listReturnsNewestFirstUpToTheLimit() {
        this.store.write(deadLetter("a"));
        this.store.write(deadLetter("b"));
        this.store.write(deadLetter("c"));

        assertThat(ids(this.store.list(10))).containsExactly("c", "b", "a");
        assertThat(ids(this.store.list(2))).containsExactly("c", "b");
        assertThat(this.store.list(0)).isEmpty();
        assertThatIllegalArgumentException().isThrownBy(() -> this.store.list(-1));
    }

    @Test
    void deadLetterRoundTripsWithEveryField() {
        DeadLetter written = new DeadLetter("a", "payment", "PaymentService#pay", List.of("\"o-1\"", "1250"),
                "java.io.IOException", "gateway down", 4, FIRST_ATTEMPT, FIRST_ATTEMPT.plusMillis(1234),
                ExecutionStatus.TIMEOUT);

        this.store.write(written);

        assertThat(this.store.find("a")).contains(written);
        assertThat(this.store.list(1)).containsExactly(written);
    }

    @Test
    void rewritingAnIdReplacesItAndMakesItNewest() {
        this.store.write(deadLetter("a"));
        this.store.write(deadLetter("b"));
        DeadLetter rewritten = new DeadLetter("a", "payment", "PaymentService#pay", List.of(), "java.io.IOException",
                null, 5, FIRST_ATTEMPT, FIRST_ATTEMPT.plusSeconds(9), ExecutionStatus.TIMEOUT);

        this.store.write(rewritten);

        assertThat(this.store.size()).isEqualTo(2);
        assertThat(this.store.list(10)).containsExactly(rewritten, deadLetter("b"));
    }

    @Test
    void findReturnsTheDeadLetterWrittenUnderAnId() {
        this.store.write(deadLetter("a"));

        assertThat(this.store.find("a")).contains(deadLetter("a"));
        assertThat(this.store.find("unknown")).isEmpty();
    }

    @Test
    void deleteRemovesOnlyThatDeadLetter() {
        this.store.write(deadLetter("a"));
        this.store.write(deadLetter("b"));

        assertThat(this.store.delete("a")).isTrue();
        assertThat(this.store.delete("a")).isFalse();
        assertThat(this.store.find("a")).isEmpty();
        assertThat(ids(this.store.list(10))).containsExactly("b");
        assertThat(this.store.size()).isEqualTo(1);
    }

    @Test
    void writesBeyondCapacityEvictTheOldestWithTheirBodies() {
        for (String id : List.of("a", "b", "c", "d", "e")) {
            this.store.write(deadLetter(id));
        }

        assertThat(ids(this.store.list(10))).containsExactly("e", "d", "c");
        assertThat(this.store.size()).isEqualTo(CAPACITY);
        assertThat(this.store.find("a")).isEmpty();
        assertThat(redis.command("HLEN {resilience:deadletters}:entries")).isEqualTo(":" + CAPACITY);
    }

    @Test
    void deadLettersOlderThanTheTtlAreGoneFromEveryReadAndFromTheIndexes() {
        VirtualTimeSource clock = new VirtualTimeSource();
        LettuceConnectionFactory factory = redis.connectionFactory();
        this.connections.add(factory);
        RedisDeadLetterStore expiring = new RedisDeadLetterStore(new StringRedisTemplate(factory),
                JsonMapper.builder().build(), RedisDeadLetterStore.DEFAULT_NAME, 10, Duration.ofSeconds(2),
                Duration.ofHours(1), clock);
        expiring.write(deadLetter("old"));
        clock.advance(Duration.ofMinutes(30));
        expiring.write(deadLetter("young"));

        clock.advance(Duration.ofMinutes(30));

        assertThat(expiring.find("old")).isEmpty();
        assertThat(ids(expiring.list(10))).containsExactly("young");
        assertThat(expiring.size()).isEqualTo(1);
        assertThat(expiring.delete("old")).isFalse();
        assertThat(redis.command("ZCARD {resilience:deadletters}:order")).isEqualTo(":1");
        assertThat(redis.command("ZCARD {resilience:deadletters}:expiry")).isEqualTo(":1");
        assertThat(redis.command("HLEN {resilience:deadletters}:entries")).isEqualTo(":1");
        assertThat(Long.parseLong(redis.command("PTTL {resilience:deadletters}:entries").substring(1))).isPositive()
            .isLessThanOrEqualTo(Duration.ofHours(1).toMillis());
        clock.advance(Duration.ofMinutes(30));
        assertThat(expiring.list(10)).isEmpty();
        assertThat(expiring.size()).isZero();
    }

    @Test
    void capacityBelowOneIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> newStore(0));
    }

    @Test
    void everyInstanceReadsTheSameDeadLettersAndBound() throws Exception {
        RedisDeadLetterStore other = newStore(CAPACITY);
        this.store.write(deadLetter("a"));
        other.write(deadLetter("b"));

        assertThat(ids(this.store.list(10))).containsExactly("b", "a");
        assertThat(ids(other.list(10))).containsExactly("b", "a");
        assertThat(other.delete("a")).isTrue();
        assertThat(this.store.find("a")).isEmpty();

        writeConcurrently(List.of(this.store, other), 40);
        assertThat(this.store.size()).isEqualTo(CAPACITY);
        assertThat(other.list(10)).hasSize(CAPACITY);
        assertThat(redis.command("HLEN {resilience:deadletters}:entries")).isEqualTo(":" + CAPACITY);
    }

    @Test
    void writeWhileRedisIsDownDoesNotThrowAndIsCounted() {
        redis.stop();

        assertThatNoException().isThrownBy(() -> this.store.write(deadLetter("lost")));
        assertThat(this.store.failedWrites()).isEqualTo(1);

        redis.start();
        this.store.write(deadLetter("kept"));
        assertThat(ids(this.store.list(10))).containsExactly("kept");
        assertThat(this.store.failedWrites()).isEqualTo(1);
    }

    private void writeConcurrently(List<RedisDeadLetterStore> stores, int writesPerStore) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        ExecutorService executor = Executors.newFixedThreadPool(stores.size() * 4);
        try {
            List<Future<?>> writes = new ArrayList<>();
            for (int i = 0; i < writesPerStore; i++) {
                for (RedisDeadLetterStore store : stores) {
                    String id = "w-" + i + "-" + writes.size();
                    writes.add(executor.submit(() -> {
                        gate.await();
                        store.write(deadLetter(id));
                        return null;
                    }));
                }
            }
            gate.countDown();
            for (Future<?> write : writes) {
                write.get();
            }
        }
        finally {
            executor.shutdownNow();
        }
    }

    private RedisDeadLetterStore newStore(int capacity) {
        LettuceConnectionFactory factory = redis.connectionFactory();
        this.connections.add(factory);
        return new RedisDeadLetterStore(new StringRedisTemplate(factory), JsonMapper.builder().build(),
                RedisDeadLetterStore.DEFAULT_NAME, capacity);
    }

    private static DeadLetter deadLetter(String id) {
        return new DeadLetter(id, "payment", "PaymentService#pay", List.of("\"o-1\""), "java.io.IOException", "boom", 3,
                FIRST_ATTEMPT, FIRST_ATTEMPT.plus(Duration.ofSeconds(1)), ExecutionStatus.ERROR);
    }

    private static List<String> ids(List<DeadLetter> deadLetters) {
        return deadLetters.stream().map(DeadLetter::id).toList();
    }

}
