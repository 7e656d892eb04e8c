package dev.resilience.core.bulkhead;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The settings of a bulkhead: the defaults of DESIGN section 12, and a refusal that names
 * the bad value.
 */
class BulkheadConfigTests {

    @Test
    void defaultsAreThoseOfTheDesign() {
        BulkheadConfig config = BulkheadConfig.ofDefaults();

        assertThat(config.type()).isEqualTo(BulkheadType.FIXED);
        assertThat(config.maxConcurrentCalls()).isEqualTo(25);
        assertThat(config.maxWait()).isEqualTo(Duration.ZERO);
        assertThat(config.minLimit()).isEqualTo(1);
        assertThat(config.maxLimit()).isEqualTo(200);
        assertThat(config.algorithm()).isEqualTo(LimitAlgorithm.GRADIENT);
        assertThat(config.latencyThreshold()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void outOfRangeLimitsAreRefusedNamingTheSettingAndTheValue() {
        assertThatIllegalArgumentException().isThrownBy(() -> BulkheadConfig.builder().maxConcurrentCalls(0))
            .withMessage("maxConcurrentCalls must be between 1 and 100000, was 0");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> BulkheadConfig.builder().maxLimit(BulkheadConfig.HIGHEST_LIMIT + 1))
            .withMessageContaining("maxLimit")
            .withMessageContaining("100001");
        assertThatIllegalArgumentException().isThrownBy(() -> BulkheadConfig.builder().minLimit(-3))
            .withMessageContaining("minLimit")
            .withMessageContaining("-3");
    }

    @Test
    void negativeWaitAndAThresholdOutOfRangeAreRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> BulkheadConfig.builder().maxWait(Duration.ofMillis(-1)))
            .withMessage("maxWait must not be negative, was PT-0.001S");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> BulkheadConfig.builder().maxWait(BulkheadConfig.MAX_MAX_WAIT.plusNanos(1)))
            .withMessage("maxWait must be at most PT1H, was PT1H0.000000001S");
        assertThat(BulkheadConfig.builder().maxWait(BulkheadConfig.MAX_MAX_WAIT).build().maxWait())
            .isEqualTo(Duration.ofHours(1));
        assertThatIllegalArgumentException().isThrownBy(() -> BulkheadConfig.builder().latencyThreshold(Duration.ZERO))
            .withMessageContaining("latencyThreshold")
            .withMessageContaining("PT0S");
        assertThatIllegalArgumentException()
            .isThrownBy(
                    () -> BulkheadConfig.builder().latencyThreshold(BulkheadConfig.MAX_LATENCY_THRESHOLD.plusNanos(1)))
            .withMessage("latencyThreshold must be positive and at most 1h, was PT1H0.000000001S");
        assertThat(BulkheadConfig.builder()
            .latencyThreshold(BulkheadConfig.MAX_LATENCY_THRESHOLD)
            .build()
            .latencyThreshold()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void limitsThatContradictEachOtherAreRefusedWhenBuilt() {
        assertThatIllegalArgumentException().isThrownBy(() -> BulkheadConfig.builder().minLimit(10).maxLimit(5).build())
            .withMessage("minLimit 10 must not be above maxLimit 5");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> BulkheadConfig.builder()
                .type(BulkheadType.ADAPTIVE)
                .maxConcurrentCalls(300)
                .maxLimit(200)
                .build())
            .withMessageContaining("maxConcurrentCalls 300");
    }

    @Test
    void aFixedBulkheadMayExceedTheAdaptiveMaximum() {
        assertThat(BulkheadConfig.builder().maxConcurrentCalls(500).build().maxConcurrentCalls()).isEqualTo(500);
    }

}
