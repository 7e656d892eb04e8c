package dev.resilience.core.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.resilience.core.time.TimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class IdempotencyStoreKeysTests {

    private final IdempotencyPolicy payments = IdempotencyPolicy.of("pay",
            new InMemoryIdempotencyStore(TimeSource.system()));

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
        List<String> keys = List.of(IdempotencyPolicy.of("b:c", store).storeKey("a", "d"),
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

    @Test
    void scopesThatDifferOnlyInUnpairedSurrogatesGiveDifferentStoreKeys() {
        IdempotencyPolicy policy = IdempotencyPolicy.of("charge", new InMemoryIdempotencyStore(TimeSource.system()));

        assertThat(policy.storeKey("alice\uD800", "k-1")).isNotEqualTo(policy.storeKey("alice?", "k-1"))
            .isNotEqualTo(policy.storeKey("alice\uDBFF", "k-1"));
        assertThat(policy.storeKey("alice", "k\uD800")).isNotEqualTo(policy.storeKey("alice", "k?"));
    }

    @Test
    void wellFormedScopesAndKeysKeepTheSha256OfTheirUtf8() throws Exception {
        IdempotencyPolicy policy = IdempotencyPolicy.of("charge", new InMemoryIdempotencyStore(TimeSource.system()));
        MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        String scope = Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(sha256.digest("al\u00efce \uD83D\uDE00".getBytes(StandardCharsets.UTF_8)));

        assertThat(policy.storeKey("al\u00efce \uD83D\uDE00", "k-1")).startsWith(scope + ":charge:");
    }

}
