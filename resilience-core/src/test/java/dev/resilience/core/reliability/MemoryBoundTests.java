package dev.resilience.core.reliability;

import java.lang.ref.Reference;
import java.time.Duration;

import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerRegistry;
import dev.resilience.core.circuitbreaker.SlidingWindowType;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Memory stays bounded whatever the number of keys or names: a million idempotency keys
 * through a store bounded at 100,000 entries, a thousand breakers in a registry.
 */
class MemoryBoundTests {

    private static final int KEYS = 1_000_000;

    private static final int MAX_ENTRIES = InMemoryIdempotencyStore.DEFAULT_MAX_ENTRIES;

    private static final Duration LEASE = Duration.ofSeconds(60);

    private final VirtualTimeSource clock = new VirtualTimeSource();

    @Test
    void millionCompletedKeysNeverExceedTheBoundAndTheNewestAreReplayed() {
        long before = usedHeapAfterGc();
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.clock, MAX_ENTRIES);
        int largest = 0;

        for (int i = 0; i < KEYS; i++) {
            String key = "order-" + i;
            ClaimResult.Acquired claim = (ClaimResult.Acquired) store.claim(key, "fp", LEASE);
            assertThat(store.complete(key, claim.ownerToken(), "receipt", Duration.ofHours(24))).isTrue();
            if (i % 1_000 == 0) {
                largest = Math.max(largest, store.size());
                assertThat(store.size()).isLessThanOrEqualTo(MAX_ENTRIES);
            }
        }
        long retained = usedHeapAfterGc() - before;

        assertThat(largest).isEqualTo(MAX_ENTRIES);
        assertThat(store.size()).isEqualTo(MAX_ENTRIES);
        assertThat(store.claim("order-" + (KEYS - 1), "fp", LEASE)).isEqualTo(new ClaimResult.Completed("receipt"));
        assertThat(store.claim("order-" + (KEYS - MAX_ENTRIES), "fp", LEASE))
            .isEqualTo(new ClaimResult.Completed("receipt"));
        assertThat(store.claim("order-0", "fp", LEASE)).isInstanceOf(ClaimResult.Acquired.class);
        assertThat(retained / MAX_ENTRIES).as("bytes retained per entry").isLessThan(2_048);
        System.out.printf("idempotency store: %d keys, bound %d, %d bytes retained (%d per entry)%n", KEYS, MAX_ENTRIES,
                retained, retained / MAX_ENTRIES);
        Reference.reachabilityFence(store);
    }

    @Test
    void millionShortLivedKeysArePurgedAsTheyExpire() {
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.clock, MAX_ENTRIES);
        Duration ttl = Duration.ofSeconds(1);
        int largest = 0;

        for (int i = 0; i < KEYS; i++) {
            String key = "order-" + i;
            ClaimResult.Acquired claim = (ClaimResult.Acquired) store.claim(key, "fp", LEASE);
            assertThat(store.complete(key, claim.ownerToken(), "receipt", ttl)).isTrue();
            this.clock.advance(Duration.ofMillis(1));
            if (i % 1_000 == 0) {
                largest = Math.max(largest, store.size());
            }
        }

        assertThat(largest).as("largest size seen").isLessThanOrEqualTo(1_001);
        assertThat(store.size()).isLessThanOrEqualTo(1_001);
        System.out.printf("idempotency store with 1s ttl, one key per ms: largest size %d of bound %d%n", largest,
                MAX_ENTRIES);
    }

    @Test
    void thousandBreakersWithTheDefaultWindowCostLittleMemoryEach() {
        long countBytes = bytesPerBreaker(CircuitBreakerConfig.ofDefaults(), "count");
        long timeBytes = bytesPerBreaker(
                CircuitBreakerConfig.builder().slidingWindowType(SlidingWindowType.TIME).slidingWindowSize(100).build(),
                "time");

        assertThat(countBytes).as("bytes per breaker, count window of 100").isLessThan(64 * 1024);
        assertThat(timeBytes).as("bytes per breaker, time window of 100s").isLessThan(64 * 1024);
        System.out.printf("breakers: %d bytes each with a count window of 100, %d with a time window of 100s%n",
                countBytes, timeBytes);
    }

    @SuppressWarnings("removal")
    private long bytesPerBreaker(CircuitBreakerConfig config, String kind) {
        long before = usedHeapAfterGc();
        CircuitBreakerRegistry registry = new CircuitBreakerRegistry(this.clock);
        for (int i = 0; i < 1_000; i++) {
            registry.breaker(kind + "-breaker-" + i, config);
        }
        long retained = usedHeapAfterGc() - before;
        assertThat(registry.all()).hasSize(1_000);
        Reference.reachabilityFence(registry);
        return Math.max(0, retained) / 1_000;
    }

    private static long usedHeapAfterGc() {
        Runtime runtime = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
        }
        return used;
    }

}
