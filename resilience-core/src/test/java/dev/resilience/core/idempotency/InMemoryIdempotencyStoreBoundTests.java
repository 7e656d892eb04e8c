package dev.resilience.core.idempotency;

import java.time.Duration;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static dev.resilience.core.idempotency.InMemoryIdempotencyStoreTests.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class InMemoryIdempotencyStoreBoundTests {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private static final Duration TTL = Duration.ofHours(1);

    private final VirtualTimeSource time = new VirtualTimeSource();

    @Test
    void manyCompletedKeysStayWithinTheBoundAndTheNewestAreReplayed() {
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.time, 100);

        for (int i = 0; i < 10_000; i++) {
            String key = "key-" + i;
            assertThat(store.complete(key, token(store.claim(key, "fp", LEASE)), i, TTL)).isTrue();
            assertThat(store.size()).isLessThanOrEqualTo(100);
        }

        assertThat(store.size()).isEqualTo(100);
        assertThat(store.claim("key-9999", "fp", LEASE)).isEqualTo(new ClaimResult.Completed(9999));
        assertThat(store.claim("key-9900", "fp", LEASE)).isEqualTo(new ClaimResult.Completed(9900));
    }

    @Test
    void fullStoreEvictsTheEntryCompletedLongestAgo() {
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.time, 3);
        String a = token(store.claim("a", "fp", LEASE));
        String b = token(store.claim("b", "fp", LEASE));
        store.complete("b", b, "B", TTL);
        store.complete("a", a, "A", TTL);
        store.claim("c", "fp", LEASE);

        assertThat(store.claim("d", "fp", LEASE)).isInstanceOf(ClaimResult.Acquired.class);

        assertThat(store.size()).isEqualTo(3);
        assertThat(store.claim("a", "fp", LEASE)).isEqualTo(new ClaimResult.Completed("A"));
        assertThat(store.claim("b", "fp", LEASE)).isInstanceOf(ClaimResult.Acquired.class);
    }

    @Test
    void expiredEntriesArePurgedWhenNewKeysArrive() {
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.time, 100);
        for (int i = 0; i < 50; i++) {
            store.complete("done-" + i, token(store.claim("done-" + i, "fp", LEASE)), i, Duration.ofSeconds(1));
            store.claim("abandoned-" + i, "fp", Duration.ofSeconds(1));
        }
        assertThat(store.size()).isEqualTo(100);
        this.time.advance(Duration.ofSeconds(1));

        store.claim("fresh", "fp", LEASE);

        assertThat(store.size()).isEqualTo(1);
    }

    @Test
    void shortLivedKeysNeverAccumulate() {
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.time, 1_000);

        for (int i = 0; i < 100_000; i++) {
            String key = "key-" + i;
            store.complete(key, token(store.claim(key, "fp", LEASE)), i, Duration.ofMillis(10));
            this.time.advance(Duration.ofMillis(1));
        }

        assertThat(store.size()).isLessThanOrEqualTo(11);
    }

    @Test
    void liveInProgressEntriesAreNeverEvicted() {
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.time, 10);
        for (int i = 0; i < 5; i++) {
            store.claim("running-" + i, "fp", LEASE);
        }

        for (int i = 0; i < 100; i++) {
            store.complete("done-" + i, token(store.claim("done-" + i, "fp", LEASE)), i, TTL);
        }

        assertThat(store.size()).isEqualTo(10);
        for (int i = 0; i < 5; i++) {
            assertThat(store.claim("running-" + i, "fp", LEASE)).isInstanceOf(ClaimResult.InProgress.class);
        }
    }

    @Test
    void storeFullOfLiveInProgressEntriesRefusesNewKeys() {
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.time, 10);
        for (int i = 0; i < 10; i++) {
            store.claim("running-" + i, "fp", LEASE);
        }

        assertThatExceptionOfType(IdempotencyStoreException.class)
            .isThrownBy(() -> store.claim("one-too-many", "fp", LEASE))
            .withMessageContaining("full");
        assertThat(store.size()).isEqualTo(10);
        assertThat(store.claim("running-3", "fp", LEASE)).isInstanceOf(ClaimResult.InProgress.class);

        this.time.advance(LEASE);
        assertThat(store.claim("one-too-many", "fp", LEASE)).isInstanceOf(ClaimResult.Acquired.class);
    }

    @Test
    void releasedAndExpiredKeysFreeTheirSlots() {
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.time, 2);
        for (int i = 0; i < 1_000; i++) {
            String key = "key-" + (i % 3);
            ClaimResult claim = store.claim(key, "fp", Duration.ofSeconds(1));
            if (claim instanceof ClaimResult.Acquired acquired && i % 2 == 0) {
                store.release(key, acquired.ownerToken());
            }
            this.time.advance(Duration.ofMillis(700));
            assertThat(store.size()).isLessThanOrEqualTo(2);
        }
    }

}
