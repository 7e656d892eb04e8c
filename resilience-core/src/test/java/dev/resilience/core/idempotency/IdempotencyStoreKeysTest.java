package dev.resilience.core.idempotency;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.resilience.core.time.TimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class IdempotencyStoreKeysTest {

    private final IdempotencyPolicy payments = IdempotencyPolicy.of("pay", new InMemoryIdempotencyStore(TimeSource.system()));

    @Test
    void keyWithBracesGivesAStoreKeyOfFixedLengthWithoutBraces() {
        String braces = this.payments.storeKey("alice", "{x}");
        String plain = this.payments.storeKey("alice", "k");

        assertThat(braces).doesNotContain("{", "}").hasSameSizeAs(plain);
    }

    @Test
    void longestKeyGivesAStoreKeyOfFixedLength() {
        String longest = this.payments.storeKey("alice", "k".repeat(IdempotencyKeys.MAX_KEY_LENGTH));

        assertThat(longest).hasSameSizeAs(this.payments.storeKey("alice", "k")).hasSizeLessThan(100);
    }

    @Test
    void storeKeyNamesTheScopeAndNameButNotTheClientsKey() {
        assertThat(this.payments.storeKey("", "k-123")).startsWith(":pay:").doesNotContain("k-123");
        assertThat(this.payments.storeKey("alice", "k-123")).contains(":pay:").doesNotContain("k-123", "alice");
    }

    @Test
    void scopeNameAndKeyThatConcatenateAlikeGiveDifferentStoreKeys() {
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(TimeSource.system());
        List<String> keys = List.of(
                IdempotencyPolicy.of("b:c", store).storeKey("a", "d"),
                IdempotencyPolicy.of("c", store).storeKey("a:b", "d"),
                IdempotencyPolicy.of("b", store).storeKey("a", "c:d"),
                IdempotencyPolicy.of("a:b:c", store).storeKey("", "d"),
                IdempotencyPolicy.of("b:c:d", store).storeKey("a", ""),
                IdempotencyPolicy.of("a:b", store).storeKey("", "c:d"));
        Set<String> distinct = new HashSet<>(keys);

        assertThat(distinct).hasSameSizeAs(keys);
    }

    @Test
    void noScopeAndAnEmptyScopeAreTheSameButDifferFromAnyOther() {
        assertThat(this.payments.storeKey("", "k")).isNotEqualTo(this.payments.storeKey("-", "k"))
            .isNotEqualTo(this.payments.storeKey(" ", "k"));
    }
}
