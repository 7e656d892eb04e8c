package dev.resilience.core.retry;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class BackoffTests {

    private static final int DRAWS = 10_000;

    private static final Duration DELAY = Duration.ofMillis(100);

    private static final Duration MAX_DELAY = Duration.ofSeconds(10);

    static Stream<Arguments> generators() {
        return Stream.of(Arguments.of("seeded", new SplittableRandom(42)),
                Arguments.of("default", RetryPolicy.ofDefaults().random()));
    }

    @Test
    void noJitterIsExactlyTheCappedExponentialFormula() {
        Backoff backoff = Backoff.of(DELAY, 1.5, MAX_DELAY, Jitter.NONE);
        for (int retry = 1; retry <= 20; retry++) {
            long expected = Math.min(MAX_DELAY.toNanos(), (long) (DELAY.toNanos() * Math.pow(1.5, retry - 1)));
            assertThat(backoff.baseDelay(retry)).isEqualTo(Duration.ofNanos(expected));
            assertThat(backoff.nextDelayNanos(retry, 0, new SplittableRandom(retry))).isEqualTo(expected);
        }
    }

    @Test
    void delaysDoubleUntilTheMaximumCapsThem() {
        Backoff backoff = Backoff.of(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(5), Jitter.NONE);
        assertThat(Stream.iterate(1, (retry) -> retry + 1).limit(5).map(backoff::baseDelay)).containsExactly(
                Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(5),
                Duration.ofSeconds(5));
    }

    @Test
    void multiplierOfOneKeepsTheDelayFixed() {
        Backoff backoff = Backoff.of(DELAY, 1.0, MAX_DELAY, Jitter.NONE);
        assertThat(backoff.baseDelay(1)).isEqualTo(DELAY);
        assertThat(backoff.baseDelay(50)).isEqualTo(DELAY);
    }

    @Test
    void largeRetryNumbersSaturateAtTheMaximumDelay() {
        Backoff backoff = Backoff.of(DELAY, 2.0, MAX_DELAY, Jitter.NONE);
        assertThat(backoff.baseDelay(1000)).isEqualTo(MAX_DELAY);
        assertThat(backoff.baseDelay(Integer.MAX_VALUE)).isEqualTo(MAX_DELAY);
        assertThat(backoff.nextDelayNanos(1000, 0, new SplittableRandom(1))).isEqualTo(MAX_DELAY.toNanos());
        Backoff longest = Backoff.of(Duration.ofDays(1), 1000, Duration.ofDays(100_000), Jitter.FULL);
        assertThat(longest.nextDelayNanos(1000, 0, new SplittableRandom(1))).isBetween(0L,
                Duration.ofDays(100_000).toNanos());
    }

    @ParameterizedTest(name = "{0} generator")
    @MethodSource("generators")
    void fullJitterDrawsAcrossZeroToTheBaseDelay(String name, RandomGenerator random) {
        Backoff backoff = Backoff.of(DELAY, 2.0, MAX_DELAY, Jitter.FULL);
        for (int retry = 1; retry <= 10; retry++) {
            long base = backoff.baseDelay(retry).toNanos();
            assertSpread(draws(backoff, retry, random), 0, base);
        }
    }

    @ParameterizedTest(name = "{0} generator")
    @MethodSource("generators")
    void equalJitterDrawsAcrossHalfToTheWholeBaseDelay(String name, RandomGenerator random) {
        Backoff backoff = Backoff.of(DELAY, 2.0, MAX_DELAY, Jitter.EQUAL);
        for (int retry = 1; retry <= 10; retry++) {
            long base = backoff.baseDelay(retry).toNanos();
            assertSpread(draws(backoff, retry, random), base / 2, base);
        }
    }

    @ParameterizedTest(name = "{0} generator")
    @MethodSource("generators")
    void decorrelatedJitterStaysBetweenTheDelayAndThreeTimesThePreviousCapped(String name, RandomGenerator random) {
        Backoff backoff = Backoff.of(DELAY, 2.0, MAX_DELAY, Jitter.DECORRELATED);
        long delay = DELAY.toNanos();
        long cap = MAX_DELAY.toNanos();
        long[] firsts = new long[DRAWS];
        for (int call = 0; call < DRAWS; call++) {
            long previous = 0;
            for (int retry = 1; retry <= 10; retry++) {
                long next = backoff.nextDelayNanos(retry, previous, random);
                long upper = Math.min(cap, 3 * ((previous > 0) ? previous : delay));
                assertThat(next).isBetween(delay, upper);
                if (retry == 1) {
                    firsts[call] = next;
                }
                previous = next;
            }
        }
        assertSpread(firsts, delay, 3 * delay);
    }

    @Test
    void decorrelatedJitterIsCappedAtTheMaximumDelay() {
        Backoff backoff = Backoff.of(DELAY, 2.0, Duration.ofMillis(250), Jitter.DECORRELATED);
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < DRAWS; i++) {
            assertThat(backoff.nextDelayNanos(3, Duration.ofSeconds(1).toNanos(), random)).isBetween(DELAY.toNanos(),
                    Duration.ofMillis(250).toNanos());
            assertThat(backoff.nextDelayNanos(3, Long.MAX_VALUE, random))
                .isLessThanOrEqualTo(Duration.ofMillis(250).toNanos());
        }
    }

    @Test
    void consecutiveDrawsDiffer() {
        SplittableRandom random = new SplittableRandom(3);
        for (Jitter jitter : new Jitter[] { Jitter.FULL, Jitter.EQUAL, Jitter.DECORRELATED }) {
            Backoff backoff = Backoff.of(DELAY, 2.0, MAX_DELAY, jitter);
            long first = backoff.nextDelayNanos(2, DELAY.toNanos(), random);
            long second = backoff.nextDelayNanos(2, DELAY.toNanos(), random);
            assertThat(first).as(jitter.name()).isNotEqualTo(second);
        }
    }

    @Test
    void sameSeedGivesSameDelays() {
        Backoff backoff = Backoff.of(DELAY, 2.0, MAX_DELAY, Jitter.FULL);
        SplittableRandom one = new SplittableRandom(11);
        SplittableRandom other = new SplittableRandom(11);
        for (int retry = 1; retry <= 10; retry++) {
            assertThat(backoff.nextDelayNanos(retry, 0, one)).isEqualTo(backoff.nextDelayNanos(retry, 0, other));
        }
    }

    @Test
    void noneNeverWaits() {
        Backoff none = Backoff.none();
        assertThat(none.baseDelay(1)).isZero();
        assertThat(none.nextDelayNanos(100, 5, new SplittableRandom(1))).isZero();
        assertThat(none.jitter()).isEqualTo(Jitter.NONE);
    }

    @Test
    void zeroDelayStaysZeroWhateverTheJitter() {
        for (Jitter jitter : Jitter.values()) {
            Backoff backoff = Backoff.of(Duration.ZERO, 2.0, MAX_DELAY, jitter);
            assertThat(backoff.nextDelayNanos(5, 0, new SplittableRandom(1))).as(jitter.name()).isZero();
        }
    }

    @Test
    void outOfRangeSettingsAreRefusedByName() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> Backoff.of(Duration.ofMillis(-1), 2, MAX_DELAY, Jitter.FULL))
            .withMessageStartingWith("delay must not be negative");
        assertThatIllegalArgumentException().isThrownBy(() -> Backoff.of(DELAY, 0.5, MAX_DELAY, Jitter.FULL))
            .withMessageStartingWith("multiplier");
        assertThatIllegalArgumentException().isThrownBy(() -> Backoff.of(DELAY, Double.NaN, MAX_DELAY, Jitter.FULL))
            .withMessageStartingWith("multiplier");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> Backoff.of(DELAY, Double.POSITIVE_INFINITY, MAX_DELAY, Jitter.FULL))
            .withMessageStartingWith("multiplier");
        assertThatIllegalArgumentException().isThrownBy(() -> Backoff.of(DELAY, 2, Duration.ofMillis(99), Jitter.FULL))
            .withMessageStartingWith("maxDelay must not be less than delay");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> Backoff.of(DELAY, 2, Duration.ofDays(365 * 1000), Jitter.FULL))
            .withMessageStartingWith("maxDelay");
        Backoff backoff = Backoff.of(DELAY, 2, MAX_DELAY, Jitter.FULL);
        assertThatIllegalArgumentException().isThrownBy(() -> backoff.baseDelay(0))
            .withMessageStartingWith("retry must be >= 1");
        assertThatIllegalArgumentException().isThrownBy(() -> backoff.nextDelayNanos(0, 0, new SplittableRandom()))
            .withMessageStartingWith("retry must be >= 1");
    }

    @Test
    void equalSettingsMakeEqualBackoffs() {
        assertThat(Backoff.of(DELAY, 2, MAX_DELAY, Jitter.FULL)).isEqualTo(Backoff.of(DELAY, 2, MAX_DELAY, Jitter.FULL))
            .hasSameHashCodeAs(Backoff.of(DELAY, 2, MAX_DELAY, Jitter.FULL))
            .isNotEqualTo(Backoff.of(DELAY, 2, MAX_DELAY, Jitter.EQUAL));
    }

    @Test
    void drawingADelayAllocatesNothing() {
        assertThat(ManagementFactory.getThreadMXBean()).isInstanceOf(com.sun.management.ThreadMXBean.class);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        RandomGenerator random = RetryPolicy.ofDefaults().random();
        Backoff[] backoffs = Stream.of(Jitter.values())
            .map((jitter) -> Backoff.of(DELAY, 2, MAX_DELAY, jitter))
            .toArray(Backoff[]::new);
        long sink = drawAll(backoffs, random);
        long before = threads.getCurrentThreadAllocatedBytes();
        sink += drawAll(backoffs, random);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(sink).isPositive();
        assertThat(allocated).as("bytes allocated by %d draws", 400_000).isLessThan(4_000);
    }

    private static long drawAll(Backoff[] backoffs, RandomGenerator random) {
        long sum = 0;
        for (int i = 0; i < 100_000; i++) {
            for (Backoff backoff : backoffs) {
                sum += backoff.nextDelayNanos(1 + (i % 10), sum & 0xFFFFFF, random);
            }
        }
        return sum;
    }

    private static long[] draws(Backoff backoff, int retry, RandomGenerator random) {
        long[] delays = new long[DRAWS];
        for (int i = 0; i < DRAWS; i++) {
            delays[i] = backoff.nextDelayNanos(retry, 0, random);
        }
        return delays;
    }

    private static void assertSpread(long[] delays, long lowest, long highest) {
        Set<Long> distinct = new HashSet<>();
        long tenth = (highest - lowest) / 10;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (long delay : delays) {
            assertThat(delay).isBetween(lowest, highest);
            distinct.add(delay);
            min = Math.min(min, delay);
            max = Math.max(max, delay);
        }
        assertThat(distinct).hasSizeGreaterThan(delays.length * 9 / 10);
        assertThat(min).isLessThan(lowest + tenth);
        assertThat(max).isGreaterThan(highest - tenth);
    }

}
