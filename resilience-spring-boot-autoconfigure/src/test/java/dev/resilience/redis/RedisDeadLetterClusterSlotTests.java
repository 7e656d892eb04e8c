package dev.resilience.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.deadletter.DeadLetter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The dead-letter store's keys share one Redis Cluster slot whatever its name: a
 * single-node Redis in cluster mode refuses a script whose keys hash to several slots
 * (CROSSSLOT), so a name that empties the hash tag would lose every dead letter there.
 */
class RedisDeadLetterClusterSlotTests {

    private static final int SLOTS = 16384;

    @RegisterExtension
    static final RedisServer redis = new RedisServer("--cluster-enabled", "yes", "--cluster-config-file",
            clusterConfigFile(), "--cluster-require-full-coverage", "no");

    private final List<LettuceConnectionFactory> connections = new ArrayList<>();

    @BeforeAll
    static void serveEverySlot() {
        for (int first = 0; first < SLOTS; first += 2048) {
            StringJoiner command = new StringJoiner(" ", "CLUSTER ADDSLOTS ", "");
            for (int slot = first; slot < first + 2048; slot++) {
                command.add(Integer.toString(slot));
            }
            redis.command(command.toString());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> redis.command("SET {probe}:x 1").startsWith("+OK"));
    }

    @AfterEach
    void closeConnections() {
        this.connections.forEach(LettuceConnectionFactory::destroy);
    }

    @Test
    void aStoreWithAnOrdinaryNameWritesAndListsOnAClusterNode() {
        RedisDeadLetterStore store = newStore("shop:deadletters");

        store.write(deadLetter("a"));

        assertThat(store.failedWrites()).isZero();
        assertThat(store.list(10)).extracting(DeadLetter::id).containsExactly("a");
    }

    @Test
    void aNameThatWouldEmptyTheHashTagIsRefusedRatherThanLosingEveryLetterOnACluster() {
        // "{}shop:deadletters}:order": the hash tag "{}" is empty, so each key is hashed
        // whole
        // and the four keys of one script land on four slots
        assertThatIllegalArgumentException().isThrownBy(() -> newStore("}shop:deadletters"))
            .withMessageContaining("'}'");
    }

    @Test
    void anEmptyNameIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> newStore(""));
    }

    @Test
    void aNameWithBracesInsideKeepsTheFourKeysOnOneSlot() {
        RedisDeadLetterStore store = newStore("sh{op}:dead}letters");

        store.write(deadLetter("a"));

        assertThat(store.failedWrites()).isZero();
        assertThat(store.list(10)).extracting(DeadLetter::id).containsExactly("a");
    }

    private RedisDeadLetterStore newStore(String name) {
        LettuceConnectionFactory factory = redis.connectionFactory();
        this.connections.add(factory);
        return new RedisDeadLetterStore(new StringRedisTemplate(factory), JsonMapper.builder().build(), name, 10);
    }

    private static DeadLetter deadLetter(String id) {
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        return new DeadLetter(id, "payment", "PaymentService#pay", List.of("\"o-1\""), "java.io.IOException", "boom", 3,
                at, at.plusSeconds(1), ExecutionStatus.ERROR);
    }

    private static String clusterConfigFile() {
        try {
            Path file = Files.createTempFile("redis-cluster", ".conf");
            Files.delete(file);
            return file.toString();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

}
