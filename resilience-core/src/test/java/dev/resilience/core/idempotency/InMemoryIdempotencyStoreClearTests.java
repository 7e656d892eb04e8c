package dev.resilience.core.idempotency;

import java.time.Duration;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InMemoryIdempotencyStoreClearTests {

    private static final Duration LEASE = Duration.ofMinutes(1);

    private static final Duration TTL = Duration.ofHours(1);

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(new VirtualTimeSource(), 2);

    @Test
    void aCompletedKeyIsClaimedAfreshAfterTheClear() {
        ClaimResult.Acquired first = (ClaimResult.Acquired) this.store.claim("k", "fp", LEASE);
        this.store.complete("k", first.ownerToken(), "receipt", TTL);
        assertThat(this.store.claim("k", "fp", LEASE)).isEqualTo(new ClaimResult.Completed("receipt"));

        this.store.clear();

        assertThat(this.store.size()).isZero();
        assertThat(this.store.claim("k", "other-fp", LEASE)).isInstanceOf(ClaimResult.Acquired.class);
    }

    @Test
    void aCallThatClaimedBeforeTheClearCompletesWithoutStoringItsResult() {
        ClaimResult.Acquired running = (ClaimResult.Acquired) this.store.claim("k", "fp", LEASE);

        this.store.clear();

        assertThat(this.store.complete("k", running.ownerToken(), "receipt", TTL)).isFalse();
        assertThat(this.store.release("k", running.ownerToken())).isFalse();
        assertThat(this.store.claim("k", "fp", LEASE)).isInstanceOf(ClaimResult.Acquired.class);
    }

    @Test
    void theBoundCountsOnlyTheEntriesAfterTheClear() {
        this.store.claim("a", "fp", LEASE);
        this.store.claim("b", "fp", LEASE);

        this.store.clear();

        assertThat(this.store.claim("c", "fp", LEASE)).isInstanceOf(ClaimResult.Acquired.class);
        assertThat(this.store.claim("d", "fp", LEASE)).isInstanceOf(ClaimResult.Acquired.class);
        assertThat(this.store.size()).isEqualTo(2);
    }

}
