package dev.resilience.core.circuitbreaker;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

class CircuitBreakerConfigTests {

    @Test
    void defaultsAreThePublishedConstants() {
        CircuitBreakerConfig config = CircuitBreakerConfig.ofDefaults();
        assertThat(config.slidingWindowType()).isEqualTo(SlidingWindowType.COUNT);
        assertThat(config.slidingWindowSize()).isEqualTo(100);
        assertThat(config.minimumCalls()).isEqualTo(20);
        assertThat(config.failureRateThreshold()).isEqualTo(50f);
        assertThat(config.slowCallDuration()).isEqualTo(Duration.ofSeconds(60));
        assertThat(config.slowCallRateThreshold()).isEqualTo(100f);
        assertThat(config.waitInOpen()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.halfOpenCalls()).isEqualTo(5);
        assertThat(config.maxWaitInHalfOpen()).isEqualTo(Duration.ofSeconds(60))
            .isEqualTo(CircuitBreakerConfig.DEFAULT_MAX_WAIT_IN_HALF_OPEN);
        assertThat(config.automaticTransitionToHalfOpen()).isFalse()
            .isEqualTo(CircuitBreakerConfig.DEFAULT_AUTOMATIC_TRANSITION_TO_HALF_OPEN);
        assertThat(config.recordOn()).isEmpty();
        assertThat(config.ignoreOn()).isEmpty();
    }

    @Test
    void toBuilderCopiesEverySettingAndLeavesTheOriginalUnchanged() {
        CircuitBreakerConfig original = CircuitBreakerConfig.builder()
            .slidingWindowType(SlidingWindowType.TIME)
            .slidingWindowSize(60)
            .minimumCalls(7)
            .failureRateThreshold(25)
            .slowCallDuration(Duration.ofMillis(300))
            .slowCallRateThreshold(80)
            .waitInOpen(Duration.ofSeconds(5))
            .halfOpenCalls(2)
            .maxWaitInHalfOpen(Duration.ofSeconds(20))
            .automaticTransitionToHalfOpen(true)
            .recordOn(List.of(IOException.class))
            .ignoreOn(List.of(FileNotFoundException.class))
            .build();
        CircuitBreakerConfig changed = original.toBuilder().minimumCalls(9).build();

        assertThat(changed).usingRecursiveComparison().ignoringFields("minimumCalls").isEqualTo(original);
        assertThat(changed.minimumCalls()).isEqualTo(9);
        assertThat(original.minimumCalls()).isEqualTo(7);
        assertThat(changed.maxWaitInHalfOpen()).isEqualTo(Duration.ofSeconds(20));
        assertThat(changed.automaticTransitionToHalfOpen()).isTrue();
    }

    @Test
    void recordsEveryErrorAsFailureWhenRecordOnIsEmpty() {
        CircuitBreakerConfig config = CircuitBreakerConfig.ofDefaults();
        assertThat(config.isRecordedAsFailure(new IllegalStateException())).isTrue();
        assertThat(config.isIgnored(new IllegalStateException())).isFalse();
    }

    @Test
    void ignoreOnWinsOverRecordOnAndMatchesSubclasses() {
        CircuitBreakerConfig config = CircuitBreakerConfig.builder()
            .recordOn(List.of(IOException.class, TimeoutException.class))
            .ignoreOn(List.of(FileNotFoundException.class))
            .build();
        assertThat(config.isIgnored(new FileNotFoundException())).isTrue();
        assertThat(config.isRecordedAsFailure(new FileNotFoundException())).isFalse();
        assertThat(config.isRecordedAsFailure(new IOException())).isTrue();
        assertThat(config.isRecordedAsFailure(new TimeoutException())).isTrue();
        assertThat(config.isRecordedAsFailure(new IllegalArgumentException())).isFalse();
        assertThat(config.isIgnored(new IllegalArgumentException())).isFalse();
    }

    @Test
    void rejectsOutOfRangeSettingsNamingThem() {
        CircuitBreakerConfig.Builder builder = CircuitBreakerConfig.builder();
        assertThatIllegalArgumentException().isThrownBy(() -> builder.slidingWindowSize(0))
            .withMessageContaining("slidingWindowSize");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.minimumCalls(0))
            .withMessageContaining("minimumCalls");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.failureRateThreshold(0))
            .withMessageContaining("failureRateThreshold");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.failureRateThreshold(100.5f))
            .withMessageContaining("failureRateThreshold");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.failureRateThreshold(Float.NaN))
            .withMessageContaining("failureRateThreshold");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.slowCallRateThreshold(-1))
            .withMessageContaining("slowCallRateThreshold");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.slowCallDuration(Duration.ZERO))
            .withMessageContaining("slowCallDuration");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.waitInOpen(Duration.ofSeconds(-1)))
            .withMessageContaining("waitInOpen");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.waitInOpen(Duration.ofDays(365 * 300)))
            .withMessageContaining("waitInOpen");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.halfOpenCalls(0))
            .withMessageContaining("halfOpenCalls");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.maxWaitInHalfOpen(Duration.ZERO))
            .withMessageContaining("maxWaitInHalfOpen must be positive");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.maxWaitInHalfOpen(Duration.ofMillis(-1)))
            .withMessageContaining("maxWaitInHalfOpen");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.maxWaitInHalfOpen(Duration.ofDays(365 * 300)))
            .withMessageContaining("maxWaitInHalfOpen");
        assertThatNullPointerException().isThrownBy(() -> builder.maxWaitInHalfOpen(null))
            .withMessage("maxWaitInHalfOpen");
    }

    @Test
    void limitsWindowSizeByWindowType() {
        assertThat(CircuitBreakerConfig.builder().slidingWindowSize(1_000_000).build().slidingWindowSize())
            .isEqualTo(1_000_000);
        assertThatIllegalArgumentException()
            .isThrownBy(() -> CircuitBreakerConfig.builder().slidingWindowSize(1_000_001).build())
            .withMessageContaining("slidingWindowSize");
        CircuitBreakerConfig.Builder time = CircuitBreakerConfig.builder().slidingWindowType(SlidingWindowType.TIME);
        assertThat(time.slidingWindowSize(3600).build().slidingWindowSize()).isEqualTo(3600);
        assertThatIllegalArgumentException().isThrownBy(() -> time.slidingWindowSize(3601).build())
            .withMessageContaining("slidingWindowSize")
            .withMessageContaining("TIME");
    }

    @Test
    void acceptsThresholdsOfExactlyOneHundredPercent() {
        CircuitBreakerConfig config = CircuitBreakerConfig.builder()
            .failureRateThreshold(100)
            .slowCallRateThreshold(100)
            .build();
        assertThat(config.failureRateThreshold()).isEqualTo(100f);
    }

    @Test
    void failOnResultCountsNoValueByDefaultAndIsKeptByToBuilder() {
        CircuitBreakerConfig config = CircuitBreakerConfig.builder().failOnResult("FAILED"::equals).build();

        assertThat(CircuitBreakerConfig.ofDefaults().isFailureResult("FAILED")).isFalse();
        assertThat(CircuitBreakerConfig.ofDefaults().isFailureResult(null)).isFalse();
        assertThat(config.isFailureResult("FAILED")).isTrue();
        assertThat(config.isFailureResult("OK")).isFalse();
        assertThat(config.toBuilder().minimumCalls(9).build().isFailureResult("FAILED")).isTrue();
    }

    @Test
    void judgesResultsOnlyOnceAPredicateIsSetAndKeepsItThroughToBuilder() {
        CircuitBreakerConfig plain = CircuitBreakerConfig.ofDefaults();
        CircuitBreakerConfig judging = CircuitBreakerConfig.builder().failOnResult((value) -> value == null).build();

        assertThat(plain.judgesResults()).isFalse();
        assertThat(plain.toBuilder().minimumCalls(3).build().judgesResults()).isFalse();
        assertThat(judging.judgesResults()).isTrue();
        assertThat(judging.toBuilder().minimumCalls(3).build().isFailureResult(null)).isTrue();
    }

}
