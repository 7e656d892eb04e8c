package dev.resilience.core.lastgood;

import java.time.Duration;
import java.time.Instant;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The in-memory store of last good values: bounded, oldest stored evicted first, each
 * value expiring after its time to live on the store's clock.
 */
class InMemoryLastGoodStoreTests {

    private final VirtualTimeSource time = new VirtualTimeSource();

    private final InMemoryLastGoodStore store = new InMemoryLastGoodStore(2, this.time);

    @Test
    void keptValueIsReturnedWithTheTimeItWasStoredUntilItExpires() {
        Instant storedAt = this.time.now();
        this.store.put("k", "v", String.class, storedAt, Duration.ofMinutes(1));
        this.time.advance(Duration.ofSeconds(59));

        assertThat(this.store.get("k", String.class)).contains(new LastGoodValue("v", storedAt));

        this.time.advance(Duration.ofSeconds(1));
        assertThat(this.store.get("k", String.class)).isEmpty();
        assertThat(this.store.size()).isZero();
    }

    @Test
    void clearRemovesEveryValue() {
        this.store.put("a", "v", String.class, this.time.now(), Duration.ofMinutes(1));
        this.store.put("b", "w", String.class, this.time.now(), Duration.ofMinutes(1));

        this.store.clear();

        assertThat(this.store.size()).isZero();
        assertThat(this.store.get("a", String.class)).isEmpty();
        this.store.put("a", "x", String.class, this.time.now(), Duration.ofMinutes(1));
        assertThat(this.store.get("a", String.class)).map(LastGoodValue::value).contains("x");
    }

    @Test
    void valueKeptForCenturiesIsKeptAndReturned() {
        Instant storedAt = this.time.now();
        this.store.put("k", "v", String.class, storedAt, Duration.ofDays(109_500));
        this.time.advance(Duration.ofDays(365));

        assertThat(this.store.get("k", String.class)).contains(new LastGoodValue("v", storedAt));
    }

    @Test
    void oldestStoredValueIsEvictedBeyondTheBound() {
        this.store.put("a", "1", String.class, this.time.now(), Duration.ofMinutes(1));
        this.store.put("b", "2", String.class, this.time.now(), Duration.ofMinutes(1));
        this.store.put("a", "3", String.class, this.time.now(), Duration.ofMinutes(1));
        this.store.put("c", "4", String.class, this.time.now(), Duration.ofMinutes(1));

        assertThat(this.store.get("b", String.class)).isEmpty();
        assertThat(this.store.get("a", String.class)).map(LastGoodValue::value).contains("3");
        assertThat(this.store.get("c", String.class)).map(LastGoodValue::value).contains("4");
        assertThat(this.store.size()).isEqualTo(2);
    }

    @Test
    void boundMustBePositive() {
        assertThatIllegalArgumentException().isThrownBy(() -> new InMemoryLastGoodStore(0, this.time))
            .withMessageContaining("maxEntries");
    }

}
