package dev.resilience.core.time;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of {@link Durations}.
 */
class DurationsTests {

    @Test
    void formatWritesTheLargestUnitThatHoldsTheDurationExactly() {
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
        assertThat(Durations.format(Duration.ofMillis(200))).isEqualTo("200ms");
        assertThat(Durations.format(Duration.ofSeconds(120))).isEqualTo("2m");
        assertThat(Durations.format(Duration.ofNanos(1_500_000))).isEqualTo("1500us");
        assertThat(Durations.format(Duration.ofDays(2))).isEqualTo("2d");
    }

    @Test
    void formatWritesCenturiesThatOverflowNanosecondsExactly() {
        assertThat(Durations.format(Duration.ofDays(109_500))).isEqualTo("109500d");
        assertThat(Durations.format(Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE + "s");
        assertThat(Durations.format(Duration.ofSeconds(Long.MAX_VALUE, 1))).isEqualTo("9223372036854775807000000001ns");
    }

    @Test
    void formatWritesNegativeDurationsWithAMinusSign() {
        assertThat(Durations.format(Duration.ofMillis(-250))).isEqualTo("-250ms");
        assertThat(Durations.format(Duration.ofDays(-109_500))).isEqualTo("-109500d");
        assertThat(Durations.format(Duration.ofSeconds(Long.MIN_VALUE))).isEqualTo(Long.MIN_VALUE + "s");
    }

    @Test
    void toNanosSaturatesInsteadOfOverflowing() {
        assertThat(Durations.toNanos(Duration.ofMillis(3))).isEqualTo(3_000_000L);
        assertThat(Durations.toNanos(Duration.ofDays(109_500))).isEqualTo(Long.MAX_VALUE);
        assertThat(Durations.toNanos(Duration.ofDays(-109_500))).isEqualTo(Long.MIN_VALUE);
    }

}
