package dev.resilience.core.deadletter;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.time.ScheduledTask;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Claims of dead letters for a re-run: in memory, the letter stays while claimed, and by
 * default, the letter is claimed by deleting it.
 */
class DeadLetterClaimTests {

    private static final Duration LEASE = Duration.ofMinutes(10);

    private final VirtualTimeSource time = new VirtualTimeSource();

    private final InMemoryDeadLetterStore store = new InMemoryDeadLetterStore(100, Duration.ofDays(7), this.time);

    @Test
    void claimedLetterStaysListedAndNoSecondClaimHoldsIt() {
        this.store.write(deadLetter("a"));

        Optional<DeadLetterClaim> claim = this.store.claim("a", LEASE);

        assertThat(claim).map(DeadLetterClaim::deadLetter).contains(deadLetter("a"));
        assertThat(this.store.find("a")).contains(deadLetter("a"));
        assertThat(this.store.list(10)).containsExactly(deadLetter("a"));
        assertThat(this.store.claim("a", LEASE)).isEmpty();
        assertThat(this.store.claim("unknown", LEASE)).isEmpty();
    }

    @Test
    void completeDeletesTheLetterAndReleaseKeepsItClaimableAgain() {
        this.store.write(deadLetter("done"));
        this.store.write(deadLetter("undone"));

        assertThat(this.store.claim("done", LEASE).orElseThrow().complete()).isTrue();
        this.store.claim("undone", LEASE).orElseThrow().release();

        assertThat(this.store.find("done")).isEmpty();
        assertThat(this.store.find("undone")).contains(deadLetter("undone"));
        assertThat(this.store.claim("undone", LEASE)).isPresent();
    }

    @Test
    void claimOfADeadHolderRunsOutAfterItsLease() {
        this.store.write(deadLetter("a"));
        assertThat(this.store.claim("a", LEASE)).isPresent();

        this.time.advance(LEASE.minusNanos(1));
        assertThat(this.store.claim("a", LEASE)).isEmpty();
        this.time.advance(Duration.ofNanos(1));

        assertThat(this.store.claim("a", LEASE)).isPresent();
    }

    @Test
    void claimTakenJustBeforeTheClockWrapsStillRunsOutAfterItsLease() {
        InMemoryDeadLetterStore nearWrap = new InMemoryDeadLetterStore(100, Duration.ofDays(7),
                new ClockNearWrap(this.time, Duration.ofMillis(1).toNanos()));
        nearWrap.write(deadLetter("a"));
        assertThat(nearWrap.claim("a", LEASE)).isPresent();

        this.time.advance(LEASE.minusNanos(1));
        assertThat(nearWrap.claim("a", LEASE)).isEmpty();
        this.time.advance(Duration.ofNanos(1));

        assertThat(nearWrap.claim("a", LEASE)).as("claimable again once the lease ran out").isPresent();
    }

    @Test
    void claimThatRanOutNeverEndsTheClaimTakenAfterIt() {
        this.store.write(deadLetter("a"));
        DeadLetterClaim stale = this.store.claim("a", LEASE).orElseThrow();
        this.time.advance(LEASE);
        assertThat(this.store.claim("a", LEASE)).isPresent();

        stale.release();

        assertThat(this.store.claim("a", LEASE)).as("the second claim still holds").isEmpty();
    }

    @Test
    void claimsOfLettersNoLongerStoredAreDropped() {
        this.store.write(deadLetter("a"));
        assertThat(this.store.claim("a", LEASE)).isPresent();
        this.store.delete("a");

        this.store.write(deadLetter("a"));

        assertThat(this.store.claim("a", LEASE)).as("the rewritten letter is not held by the deleted one's claim")
            .isPresent();
    }

    @Test
    void leaseMustBePositive() {
        assertThatIllegalArgumentException().isThrownBy(() -> this.store.claim("a", Duration.ZERO));
    }

    @Test
    void storeWithoutClaimsOfItsOwnClaimsByDeletingAndReleasesByWritingBack() {
        DeadLetterStore plain = new PlainStore(this.store);
        plain.write(deadLetter("a"));

        DeadLetterClaim claim = plain.claim("a", LEASE).orElseThrow();

        assertThat(plain.find("a")).isEmpty();
        assertThat(plain.claim("a", LEASE)).isEmpty();
        claim.release();
        assertThat(plain.find("a")).contains(deadLetter("a"));
        assertThat(plain.claim("a", LEASE).orElseThrow().complete()).isTrue();
        assertThat(plain.find("a")).isEmpty();
    }

    private static DeadLetter deadLetter(String id) {
        return new DeadLetter(id, "payment", "PaymentService#pay", List.of("{\"orderId\":1}"),
                "java.net.SocketTimeoutException", "Read timed out", 4, Instant.parse("2026-01-01T00:00:00Z"),
                Instant.parse("2026-01-01T00:00:03Z"), ExecutionStatus.ERROR);
    }

    /**
     * A store that implements only the methods a store had before claims.
     */
    private record PlainStore(DeadLetterStore delegate) implements DeadLetterStore {

        @Override
        public void write(DeadLetter deadLetter) {
            this.delegate.write(deadLetter);
        }

        @Override
        public List<DeadLetter> list(int limit) {
            return this.delegate.list(limit);
        }

        @Override
        public Optional<DeadLetter> find(String id) {
            return this.delegate.find(id);
        }

        @Override
        public boolean delete(String id) {
            return this.delegate.delete(id);
        }

        @Override
        public int size() {
            return this.delegate.size();
        }

    }

    /**
     * A virtual clock whose readings start just before {@link Long#MAX_VALUE} and wrap
     * past it, as {@link System#nanoTime()} may.
     */
    private record ClockNearWrap(VirtualTimeSource clock, long nanosBeforeWrap) implements TimeSource {

        @Override
        public long nanoTime() {
            return Long.MAX_VALUE - this.nanosBeforeWrap + this.clock.nanoTime();
        }

        @Override
        public Instant now() {
            return this.clock.now();
        }

        @Override
        public void sleep(Duration duration) throws InterruptedException {
            this.clock.sleep(duration);
        }

        @Override
        public ScheduledTask schedule(Runnable task, Duration delay) {
            return this.clock.schedule(task, delay);
        }

    }

}
