package dev.resilience.core.hedging;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class HedgingPolicyTests {

    @Test
    void defaultsAreOneHedgeAfter100Milliseconds() {
        HedgingPolicy policy = HedgingPolicy.builder().build();

        assertThat(policy.delay()).isEqualTo(HedgingPolicy.DEFAULT_DELAY).isEqualTo(Duration.ofMillis(100));
        assertThat(policy.maxHedges()).isEqualTo(HedgingPolicy.DEFAULT_MAX_HEDGES).isEqualTo(1);
    }

    @Test
    void settingsWithinTheLimitsAreKept() {
        HedgingPolicy policy = HedgingPolicy.of(HedgingPolicy.MAX_DELAY, HedgingPolicy.HIGHEST_MAX_HEDGES);

        assertThat(policy.delay()).isEqualTo(Duration.ofHours(1));
        assertThat(policy.maxHedges()).isEqualTo(10);
        assertThat(HedgingPolicy.of(Duration.ofNanos(1), HedgingPolicy.LOWEST_MAX_HEDGES).maxHedges()).isEqualTo(1);
    }

    @Test
    void aDelayThatIsNotPositiveOrLongerThanTheMaximumIsRefusedNamingTheValue() {
        assertThatIllegalArgumentException().isThrownBy(() -> HedgingPolicy.builder().delay(Duration.ZERO))
            .withMessageContaining("PT0S");
        assertThatIllegalArgumentException().isThrownBy(() -> HedgingPolicy.builder().delay(Duration.ofMillis(-1)));
        assertThatIllegalArgumentException()
            .isThrownBy(() -> HedgingPolicy.builder().delay(HedgingPolicy.MAX_DELAY.plusNanos(1)));
    }

    @Test
    void aNumberOfHedgesOutsideTheLimitsIsRefusedNamingTheValue() {
        assertThatIllegalArgumentException().isThrownBy(() -> HedgingPolicy.builder().maxHedges(0))
            .withMessageContaining("was 0");
        assertThatIllegalArgumentException().isThrownBy(() -> HedgingPolicy.builder().maxHedges(11))
            .withMessageContaining("was 11");
    }

    @Test
    void anEventCountsAHedgeWonAndTheOtherHedgesLost() {
        assertThat(new HedgeEvent(2, 3).hedgeWon()).isTrue();
        assertThat(new HedgeEvent(2, 3).hedgesLost()).isEqualTo(2);
        assertThat(new HedgeEvent(HedgeEvent.PRIMARY, 2).hedgeWon()).isFalse();
        assertThat(new HedgeEvent(HedgeEvent.PRIMARY, 2).hedgesLost()).isEqualTo(2);
        assertThat(new HedgeEvent(HedgeEvent.NONE, 1).hedgesLost()).isEqualTo(1);
        assertThat(new HedgeEvent(HedgeEvent.NONE, 0).hedgesLost()).isZero();
    }

}
