package dev.resilience.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.SlidingWindowType;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class CircuitBreakerConfigResolverTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withUserConfiguration(PropertiesConfiguration.class);

    @Test
    void withoutPropertiesOrAnnotationTheConfigHasTheBuiltInDefaults() {
        this.contextRunner.run((context) -> assertThat(
                resolver(context.getBean(ResilienceProperties.class)).resolve("payment-gateway", null))
            .hasToString(CircuitBreakerConfig.ofDefaults().toString()));
    }

    @Test
    void defaultPropertiesOverrideTheBuiltInDefaults() {
        this.contextRunner
            .withPropertyValues("resilience.circuit-breaker.defaults.sliding-window-type=time",
                    "resilience.circuit-breaker.defaults.sliding-window-size=60",
                    "resilience.circuit-breaker.defaults.minimum-calls=10",
                    "resilience.circuit-breaker.defaults.failure-rate-threshold=25",
                    "resilience.circuit-breaker.defaults.slow-call-duration=2s",
                    "resilience.circuit-breaker.defaults.slow-call-rate-threshold=80",
                    "resilience.circuit-breaker.defaults.wait-in-open=15s",
                    "resilience.circuit-breaker.defaults.half-open-calls=3",
                    "resilience.circuit-breaker.defaults.max-wait-in-half-open=2m",
                    "resilience.circuit-breaker.defaults.automatic-transition-to-half-open=true")
            .run((context) -> {
                CircuitBreakerConfig config = resolver(context.getBean(ResilienceProperties.class))
                    .resolve("payment-gateway", null);
                assertThat(config.slidingWindowType()).isEqualTo(SlidingWindowType.TIME);
                assertThat(config.slidingWindowSize()).isEqualTo(60);
                assertThat(config.minimumCalls()).isEqualTo(10);
                assertThat(config.failureRateThreshold()).isEqualTo(25f);
                assertThat(config.slowCallDuration()).isEqualTo(Duration.ofSeconds(2));
                assertThat(config.slowCallRateThreshold()).isEqualTo(80f);
                assertThat(config.waitInOpen()).isEqualTo(Duration.ofSeconds(15));
                assertThat(config.halfOpenCalls()).isEqualTo(3);
                assertThat(config.maxWaitInHalfOpen()).isEqualTo(Duration.ofMinutes(2));
                assertThat(config.automaticTransitionToHalfOpen()).isTrue();
            });
    }

    @Test
    void instanceHalfOpenSettingsWinOverTheAnnotatedBreakersDefaultProperties() {
        this.contextRunner
            .withPropertyValues("resilience.circuit-breaker.defaults.max-wait-in-half-open=2m",
                    "resilience.circuit-breaker.defaults.automatic-transition-to-half-open=true",
                    "resilience.circuit-breaker.instances.payment-gateway.max-wait-in-half-open=20s",
                    "resilience.circuit-breaker.instances.payment-gateway.automatic-transition-to-half-open=false")
            .run((context) -> {
                CircuitBreakerConfigResolver resolver = resolver(context.getBean(ResilienceProperties.class));
                CircuitBreakerConfig gateway = resolver.resolve("payment-gateway", guarded("recordsIoFailures"));
                assertThat(gateway.maxWaitInHalfOpen()).isEqualTo(Duration.ofSeconds(20));
                assertThat(gateway.automaticTransitionToHalfOpen()).isFalse();
                CircuitBreakerConfig prices = resolver.resolve("prices", null);
                assertThat(prices.maxWaitInHalfOpen()).isEqualTo(Duration.ofMinutes(2));
                assertThat(prices.automaticTransitionToHalfOpen()).isTrue();
            });
    }

    @Test
    void instancePropertiesWinOverDefaultPropertiesSettingBySetting() {
        this.contextRunner
            .withPropertyValues("resilience.circuit-breaker.defaults.minimum-calls=10",
                    "resilience.circuit-breaker.defaults.wait-in-open=15s",
                    "resilience.circuit-breaker.instances.payment-gateway.minimum-calls=4")
            .run((context) -> {
                CircuitBreakerConfigResolver resolver = resolver(context.getBean(ResilienceProperties.class));
                CircuitBreakerConfig gateway = resolver.resolve("payment-gateway", null);
                assertThat(gateway.minimumCalls()).isEqualTo(4);
                assertThat(gateway.waitInOpen()).isEqualTo(Duration.ofSeconds(15));
                assertThat(resolver.resolve("prices", null).minimumCalls()).isEqualTo(10);
            });
    }

    @Test
    void annotationExceptionListsWinOverDefaultProperties() {
        this.contextRunner
            .withPropertyValues("resilience.circuit-breaker.defaults.record-on=java.util.concurrent.TimeoutException",
                    "resilience.circuit-breaker.defaults.ignore-on=java.lang.IllegalArgumentException")
            .run((context) -> {
                CircuitBreakerConfig config = resolver(context.getBean(ResilienceProperties.class))
                    .resolve("payment-gateway", guarded("recordsIoFailures"));
                assertThat(config.recordOn()).containsExactly(IOException.class);
                assertThat(config.ignoreOn()).containsExactly(IllegalArgumentException.class);
            });
    }

    @Test
    void instanceExceptionListsWinOverTheAnnotation() {
        this.contextRunner.withPropertyValues(
                "resilience.circuit-breaker.instances.payment-gateway.record-on=java.util.concurrent.TimeoutException")
            .run((context) -> assertThat(resolver(context.getBean(ResilienceProperties.class))
                .resolve("payment-gateway", guarded("recordsIoFailures"))
                .recordOn()).containsExactly(TimeoutException.class));
    }

    @Test
    void windowSizeTooLargeForTheInstancesWindowTypeIsReportedAgainstTheSizesProperty() {
        this.contextRunner
            .withPropertyValues("resilience.circuit-breaker.defaults.sliding-window-size=5000",
                    "resilience.circuit-breaker.instances.prices.sliding-window-type=time")
            .run((context) -> assertThatExceptionOfType(InvalidResiliencePolicyException.class)
                .isThrownBy(() -> resolver(context.getBean(ResilienceProperties.class)).resolve("prices", null))
                .satisfies((ex) -> {
                    assertThat(ex.getSubject()).isEqualTo("prices");
                    assertThat(ex.getSetting()).isEqualTo("resilience.circuit-breaker.defaults.sliding-window-size");
                    assertThat(ex.getValue()).isEqualTo("5000");
                    assertThat(ex.getReason()).contains("at most 3600");
                    assertThat(ex.getFix()).isNotBlank();
                }));
    }

    private static CircuitBreakerConfigResolver resolver(ResilienceProperties properties) {
        return new CircuitBreakerConfigResolver(properties);
    }

    private static CircuitGuarded guarded(String method) {
        return ReflectionUtils.findMethod(AnnotatedMethods.class, method).getAnnotation(CircuitGuarded.class);
    }

    static class AnnotatedMethods {

        @CircuitGuarded(value = "payment-gateway", recordOn = IOException.class)
        void recordsIoFailures() {
        }

    }

}
