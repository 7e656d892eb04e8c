package dev.resilience.core.idempotency;

import java.time.Duration;
import java.time.Instant;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class InMemoryIdempotencyStoreTests {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private static final Duration TTL = Duration.ofHours(1);

    private final VirtualTimeSource time = new VirtualTimeSource();

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.time);

    @Test
    void claimOfNewKeyIsAcquiredWithAFreshToken() {
        ClaimResult first = this.store.claim("k1", "fp", LEASE);
        ClaimResult second = this.store.claim("k2", "fp", LEASE);

        assertThat(first).isInstanceOf(ClaimResult.Acquired.class);
        assertThat(second).isInstanceOf(ClaimResult.Acquired.class);
        assertThat(token(first)).isNotBlank().isNotEqualTo(token(second));
        assertThat(this.store.size()).isEqualTo(2);
    }

    @Test
    void claimWhileInProgressReportsWhenTheLeaseExpires() {
        Instant claimedAt = this.time.now();
        this.store.claim("k", "fp", LEASE);
        this.time.advance(Duration.ofSeconds(10));

        assertThat(this.store.claim("k", "fp", LEASE)).isEqualTo(new ClaimResult.InProgress(claimedAt.plus(LEASE)));
    }

    @Test
    void claimAfterCompletionReplaysTheValue() {
        String token = token(this.store.claim("k", "fp", LEASE));

        assertThat(this.store.complete("k", token, "receipt-42", TTL)).isTrue();
        assertThat(this.store.claim("k", "fp", LEASE)).isEqualTo(new ClaimResult.Completed("receipt-42"));
        assertThat(this.store.claim("k", "fp", LEASE)).isEqualTo(new ClaimResult.Completed("receipt-42"));
    }

    @Test
    void claimAfterCompletionWithNullReplaysNull() {
        String token = token(this.store.claim("k", "fp", LEASE));

        assertThat(this.store.complete("k", token, null, TTL)).isTrue();
        assertThat(this.store.claim("k", "fp", LEASE)).isEqualTo(new ClaimResult.Completed(null));
    }

    @Test
    void claimWithAnotherFingerprintWhileInProgressIsMismatch() {
        this.store.claim("k", "fp", LEASE);

        assertThat(this.store.claim("k", "other", LEASE)).isEqualTo(new ClaimResult.Mismatch());
    }

    @Test
    void claimWithAnotherFingerprintAfterCompletionIsMismatch() {
        String token = token(this.store.claim("k", "fp", LEASE));
        this.store.complete("k", token, "v", TTL);

        assertThat(this.store.claim("k", "other", LEASE)).isEqualTo(new ClaimResult.Mismatch());
        assertThat(this.store.claim("k", "fp", LEASE)).isEqualTo(new ClaimResult.Completed("v"));
    }

    @Test
    void expiredLeaseLetsANewOwnerTakeOverAndRefusesTheStaleOwner() {
        String stale = token(this.store.claim("k", "fp", LEASE));
        this.time.advance(LEASE);

        ClaimResult takeover = this.store.claim("k", "fp", LEASE);
        assertThat(takeover).isInstanceOf(ClaimResult.Acquired.class);
        String owner = token(takeover);
        assertThat(owner).isNotEqualTo(stale);

        assertThat(this.store.complete("k", stale, "stale value", TTL)).isFalse();
        assertThat(this.store.release("k", stale)).isFalse();
        assertThat(this.store.claim("k", "fp", LEASE)).isInstanceOf(ClaimResult.InProgress.class);

        assertThat(this.store.complete("k", owner, "owner value", TTL)).isTrue();
        assertThat(this.store.complete("k", stale, "stale value", TTL)).isFalse();
        assertThat(this.store.release("k", stale)).isFalse();
        assertThat(this.store.claim("k", "fp", LEASE)).isEqualTo(new ClaimResult.Completed("owner value"));
    }

    @Test
    void expiredLeaseThatNobodyTookOverMayStillComplete() {
        String token = token(this.store.claim("k", "fp", LEASE));
        this.time.advance(LEASE.plusSeconds(5));

        assertThat(this.store.complete("k", token, "late", TTL)).isTrue();
        assertThat(this.store.claim("k", "fp", LEASE)).isEqualTo(new ClaimResult.Completed("late"));
    }

    @Test
    void expiredTtlMakesTheKeyNewAgain() {
        String token = token(this.store.claim("k", "fp", LEASE));
        this.store.complete("k", token, "v", TTL);
        this.time.advance(TTL.minusNanos(1));
        assertThat(this.store.claim("k", "fp", LEASE)).isEqualTo(new ClaimResult.Completed("v"));

        this.time.advance(Duration.ofNanos(1));

        assertThat(this.store.claim("k", "other", LEASE)).isInstanceOf(ClaimResult.Acquired.class);
        assertThat(this.store.size()).isEqualTo(1);
    }

    @Test
    void releaseMakesTheKeyClaimableAgain() {
        String token = token(this.store.claim("k", "fp", LEASE));

        assertThat(this.store.release("k", token)).isTrue();
        assertThat(this.store.size()).isZero();
        assertThat(this.store.claim("k", "other", LEASE)).isInstanceOf(ClaimResult.Acquired.class);
    }

    @Test
    void releaseAndCompleteWithAWrongTokenChangeNothing() {
        String token = token(this.store.claim("k", "fp", LEASE));

        assertThat(this.store.release("k", "not-the-token")).isFalse();
        assertThat(this.store.complete("k", "not-the-token", "v", TTL)).isFalse();
        assertThat(this.store.claim("k", "fp", LEASE)).isInstanceOf(ClaimResult.InProgress.class);
        assertThat(this.store.complete("k", token, "v", TTL)).isTrue();
    }

    @Test
    void completedEntryCanNeitherBeCompletedAgainNorReleased() {
        String token = token(this.store.claim("k", "fp", LEASE));
        this.store.complete("k", token, "first", TTL);

        assertThat(this.store.complete("k", token, "second", TTL)).isFalse();
        assertThat(this.store.release("k", token)).isFalse();
        assertThat(this.store.claim("k", "fp", LEASE)).isEqualTo(new ClaimResult.Completed("first"));
    }

    @Test
    void completeAndReleaseOfAnUnknownKeyAreRefused() {
        assertThat(this.store.complete("missing", "token", "v", TTL)).isFalse();
        assertThat(this.store.release("missing", "token")).isFalse();
        assertThat(this.store.size()).isZero();
    }

    @Test
    void nonPositiveLeaseTtlAndBoundAreRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> this.store.claim("k", "fp", Duration.ZERO));
        String token = token(this.store.claim("k", "fp", LEASE));
        assertThatIllegalArgumentException()
            .isThrownBy(() -> this.store.complete("k", token, "v", Duration.ofSeconds(-1)));
        assertThatIllegalArgumentException().isThrownBy(() -> new InMemoryIdempotencyStore(this.time, 0));
    }

    @Test
    void hugeDurationsDoNotOverflow() {
        String token = token(this.store.claim("k", "fp", Duration.ofSeconds(Long.MAX_VALUE)));
        this.time.advance(Duration.ofDays(365));

        assertThat(this.store.claim("k", "fp", LEASE)).isInstanceOf(ClaimResult.InProgress.class);
        assertThat(this.store.complete("k", token, "v", Duration.ofSeconds(Long.MAX_VALUE))).isTrue();
        this.time.advance(Duration.ofDays(365));
        assertThat(this.store.claim("k", "fp", LEASE)).isEqualTo(new ClaimResult.Completed("v"));
    }

    static String token(ClaimResult result) {
        assertThat(result).isInstanceOf(ClaimResult.Acquired.class);
        return ((ClaimResult.Acquired) result).ownerToken();
    }

}
