package dev.resilience.core.support;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Random;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SecondBucketsTests {

    private static final long SECOND = 1_000_000_000L;

    private final VirtualTimeSource clock = new VirtualTimeSource();

    @Test
    void countsStayUntilTheirSecondLeavesTheRing() {
        SecondBuckets ring = new SecondBuckets(3, 2, this.clock.nanoTime());
        ring.add(0, 2);
        ring.add(1, 1);
        advance(ring, Duration.ofMillis(1500));
        ring.add(0, 1);
        advance(ring, Duration.ofMillis(1499));
        assertThat(ring.total(0)).isEqualTo(3);
        assertThat(ring.total(1)).isEqualTo(1);

        advance(ring, Duration.ofMillis(1));
        assertThat(ring.total(0)).isEqualTo(1);
        assertThat(ring.total(1)).isZero();
        advance(ring, Duration.ofSeconds(1));
        assertThat(ring.total(0)).isZero();
    }

    @Test
    void ringOfOneSecondKeepsOnlyTheCurrentSecond() {
        SecondBuckets ring = new SecondBuckets(1, 1, this.clock.nanoTime());
        ring.add(0, 5);
        advance(ring, Duration.ofMillis(999));
        assertThat(ring.total(0)).isEqualTo(5);
        advance(ring, Duration.ofMillis(1));
        assertThat(ring.total(0)).isZero();
        ring.add(0, 1);
        assertThat(ring.total(0)).isEqualTo(1);
        assertThat(ring.currentSecond()).isEqualTo(1);
    }

    @Test
    void wrapAroundReusesEachBucketAfterEvictingIt() {
        SecondBuckets ring = new SecondBuckets(4, 1, this.clock.nanoTime());
        for (int second = 0; second < 11; second++) {
            ring.add(0, second + 1);
            advance(ring, Duration.ofSeconds(1));
        }
        // seconds 8, 9 and 10 are left: 9 + 10 + 11
        assertThat(ring.total(0)).isEqualTo(30);
        assertThat(ring.currentSecond()).isEqualTo(11);
    }

    @Test
    void jumpOfTheWholeRingOrMoreClearsIt() {
        SecondBuckets ring = new SecondBuckets(4, 1, this.clock.nanoTime());
        ring.add(0, 1);
        advance(ring, Duration.ofSeconds(3));
        ring.add(0, 1);
        advance(ring, Duration.ofSeconds(4));
        assertThat(ring.total(0)).isZero();
        ring.add(0, 7);
        advance(ring, Duration.ofDays(400));
        assertThat(ring.total(0)).isZero();
        ring.add(0, 1);
        assertThat(ring.total(0)).isEqualTo(1);
    }

    @Test
    void clockGoingBackKeepsCountingInTheCurrentSecond() {
        long origin = 10 * SECOND;
        SecondBuckets ring = new SecondBuckets(3, 1, origin);
        ring.advanceTo(origin + 2 * SECOND);
        ring.add(0, 1);
        ring.advanceTo(origin - 50 * SECOND);
        assertThat(ring.currentSecond()).isEqualTo(2);
        ring.add(0, 1);
        assertThat(ring.total(0)).isEqualTo(2);
        ring.advanceTo(origin + 4 * SECOND);
        assertThat(ring.total(0)).isEqualTo(2);
        ring.advanceTo(origin + 5 * SECOND);
        assertThat(ring.total(0)).isZero();
    }

    @Test
    void secondsCountFromTheOriginAndFloorBeforeIt() {
        SecondBuckets ring = new SecondBuckets(2, 1, 5 * SECOND + 300);
        assertThat(ring.secondOf(5 * SECOND + 300)).isZero();
        assertThat(ring.secondOf(6 * SECOND + 299)).isZero();
        assertThat(ring.secondOf(6 * SECOND + 300)).isEqualTo(1);
        assertThat(ring.secondOf(5 * SECOND + 299)).isEqualTo(-1);
    }

    @Test
    void originNearTheEndOfTheClockRangeDoesNotOverflow() {
        long origin = Long.MAX_VALUE - 2 * SECOND;
        SecondBuckets ring = new SecondBuckets(3, 1, origin);
        ring.add(0, 1);
        ring.advanceTo(origin + SECOND);
        ring.add(0, 1);
        assertThat(ring.total(0)).isEqualTo(2);
        assertThat(ring.currentSecond()).isEqualTo(1);
    }

    @Test
    void totalsMatchARecountOfTheLastSecondsUnderRandomMovesOfTheClock() {
        Random random = new Random(13);
        int size = 5;
        SecondBuckets ring = new SecondBuckets(size, 1, 0);
        Deque<long[]> entries = new ArrayDeque<>();
        long now = 0;
        long current = 0;
        for (int step = 0; step < 20_000; step++) {
            int move = random.nextInt(10);
            if (move == 0) {
                now -= random.nextInt(3) * SECOND;
            }
            else if (move == 1) {
                now += random.nextInt(3 * size) * SECOND + random.nextInt(1000);
            }
            else {
                now += random.nextInt(400_000_000);
            }
            ring.advanceTo(now);
            current = Math.max(current, Math.floorDiv(now, SECOND));
            long amount = random.nextInt(4);
            ring.add(0, amount);
            entries.add(new long[] { current, amount });
            long oldest = current - size + 1;
            entries.removeIf((entry) -> entry[0] < oldest);
            assertThat(ring.total(0)).isEqualTo(entries.stream().mapToLong((entry) -> entry[1]).sum());
        }
    }

    @Test
    void sizeAndCountersMustBePositive() {
        assertThatIllegalArgumentException().isThrownBy(() -> new SecondBuckets(0, 1, 0));
        assertThatIllegalArgumentException().isThrownBy(() -> new SecondBuckets(1, 0, 0));
    }

    private void advance(SecondBuckets ring, Duration duration) {
        this.clock.advance(duration);
        ring.advanceTo(this.clock.nanoTime());
    }

}
