package dev.resilience.core.circuitbreaker;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PackedCountsTests {

    @Test
    void packsEachOutcomeIntoItsCounts() {
        assertThat(counts(PackedCounts.of(Outcome.SUCCESS))).containsExactly(1, 0, 0);
        assertThat(counts(PackedCounts.of(Outcome.SLOW_SUCCESS))).containsExactly(1, 0, 1);
        assertThat(counts(PackedCounts.of(Outcome.FAILURE))).containsExactly(1, 1, 0);
        assertThat(counts(PackedCounts.of(Outcome.SLOW_FAILURE))).containsExactly(1, 1, 1);
        assertThat(PackedCounts.of(Outcome.IGNORED)).isZero();
    }

    @Test
    void sumsOfPackedCountsDecodeExactlyUpToOneMillionEach() {
        long packed = 1_000_000 * PackedCounts.of(Outcome.SLOW_FAILURE);
        assertThat(counts(packed)).containsExactly(1_000_000, 1_000_000, 1_000_000);
        packed += 3 * (PackedCounts.of(Outcome.SUCCESS) - PackedCounts.of(Outcome.SLOW_FAILURE));
        assertThat(counts(packed)).containsExactly(1_000_000, 999_997, 999_997);
    }

    @Test
    void fieldsBrieflyNegativeUnderRacesDecodeWithoutCorruptingTheOthers() {
        long packed = PackedCounts.of(Outcome.SUCCESS) - PackedCounts.of(Outcome.SLOW_FAILURE);
        assertThat(counts(packed)).containsExactly(0, -1, -1);
        packed += PackedCounts.of(Outcome.SLOW_FAILURE) - PackedCounts.of(Outcome.SUCCESS);
        assertThat(counts(packed)).containsExactly(0, 0, 0);
        assertThat(counts(-PackedCounts.of(Outcome.SLOW_SUCCESS) + 5 * PackedCounts.of(Outcome.FAILURE)))
            .containsExactly(4, 5, -1);
    }

    private static int[] counts(long packed) {
        return new int[] { PackedCounts.calls(packed), PackedCounts.failed(packed), PackedCounts.slow(packed) };
    }

}
