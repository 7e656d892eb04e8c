package dev.resilience.autoconfigure;

import java.util.function.Function;

import dev.resilience.annotation.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The precedence of a bulkhead's settings: YAML instance &gt; annotation &gt; YAML
 * defaults &gt; built-in, one key at a time.
 */
class BulkheadConfigResolverTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withUserConfiguration(PropertiesConfiguration.class);

    @Test
    void withoutPropertiesOrAnnotationTheConfigHasTheBuiltInDefaults() {
        this.contextRunner.run((context) -> assertThat(resolve(context.getBean(ResilienceProperties.class), null))
            .hasToString(BulkheadConfig.ofDefaults().toString()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            type                 | adaptive | ADAPTIVE
            max-concurrent-calls | 30       | 30
            max-wait             | 250ms    | PT0.25S
            min-limit            | 4        | 4
            max-limit            | 60       | 60
            algorithm            | aimd     | AIMD
            latency-threshold    | 300ms    | PT0.3S
            """)
    void defaultPropertyAppliesWhenTheAnnotationLeavesTheSettingUnset(String key, String value, String expected) {
        this.contextRunner
            .withPropertyValues("resilience.bulkhead.defaults." + key + "=" + value,
                    "resilience.bulkhead.defaults.max-limit=" + ("max-limit".equals(key) ? value : "100"))
            .run((context) -> assertThat(
                    setting(key).apply(resolve(context.getBean(ResilienceProperties.class), bulkhead("unset"))))
                .hasToString(expected));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            type                 | fixed | FIXED
            max-concurrent-calls | 12    | 12
            max-wait             | 2s    | PT2S
            """)
    void instancePropertyOverridesTheAnnotation(String key, String value, String expected) {
        this.contextRunner
            .withPropertyValues("resilience.bulkhead.defaults." + key + "=" + value,
                    "resilience.bulkhead.instances.inventory." + key + "=" + value)
            .run((context) -> {
                ResilienceProperties properties = context.getBean(ResilienceProperties.class);
                assertThat(setting(key).apply(resolve(properties, bulkhead("everySet")))).hasToString(expected);
            });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            type                 | fixed | ADAPTIVE
            max-concurrent-calls | 12    | 8
            max-wait             | 2s    | PT10S
            """)
    void annotationOverridesTheDefaultProperties(String key, String value, String expected) {
        this.contextRunner.withPropertyValues("resilience.bulkhead.defaults." + key + "=" + value)
            .run((context) -> assertThat(
                    setting(key).apply(resolve(context.getBean(ResilienceProperties.class), bulkhead("everySet"))))
                .hasToString(expected));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            min-limit         | 2     | 2
            max-limit         | 150   | 150
            algorithm         | aimd  | AIMD
            latency-threshold | 200ms | PT0.2S
            """)
    void instancePropertyOverridesTheDefaultPropertiesOfTheAdaptiveSettings(String key, String value, String expected) {
        this.contextRunner.withPropertyValues("resilience.bulkhead.defaults.type=adaptive",
                "resilience.bulkhead.defaults.min-limit=1", "resilience.bulkhead.defaults.max-limit=100",
                "resilience.bulkhead.defaults.algorithm=gradient", "resilience.bulkhead.defaults.latency-threshold=2s",
                "resilience.bulkhead.instances.inventory." + key + "=" + value)
            .run((context) -> assertThat(
                    setting(key).apply(resolve(context.getBean(ResilienceProperties.class), bulkhead("everySet"))))
                .hasToString(expected));
    }

    @Test
    void unknownTypeInTheAnnotationNamesTheAttributeAndTheFix() {
        this.contextRunner.run((context) -> assertThatExceptionOfType(InvalidResiliencePolicyException.class)
            .isThrownBy(() -> resolve(context.getBean(ResilienceProperties.class), bulkhead("badType")))
            .satisfies((ex) -> {
                assertThat(ex.getMessage()).contains("@Bulkhead(type)").contains("'elastic' is not a bulkhead type");
                assertThat(ex.getFix()).contains("Use \"fixed\" or \"adaptive\"");
            }));
    }

    @Test
    void annotatedWaitLongerThanAnHourNamesTheAttributeAndTheLongestWait() {
        this.contextRunner.run((context) -> assertThatExceptionOfType(InvalidResiliencePolicyException.class)
            .isThrownBy(() -> resolve(context.getBean(ResilienceProperties.class), bulkhead("centuriesOfWaiting")))
            .satisfies((ex) -> {
                assertThat(ex.getMessage()).contains("@Bulkhead(maxWait)")
                    .contains("109500d")
                    .contains("maxWait must be at most PT1H");
                assertThat(ex.getFix()).contains("a positive duration of at most 1h");
            }));
    }

    @Test
    void adaptiveLimitOutsideItsBoundsNamesTheSettingThatStartsIt() {
        this.contextRunner
            .withPropertyValues("resilience.bulkhead.instances.inventory.type=adaptive",
                    "resilience.bulkhead.instances.inventory.max-limit=5")
            .run((context) -> assertThatExceptionOfType(InvalidResiliencePolicyException.class)
                .isThrownBy(() -> resolve(context.getBean(ResilienceProperties.class), bulkhead("everySet")))
                .satisfies((ex) -> {
                    assertThat(ex.getMessage()).contains("@Bulkhead(maxConcurrentCalls)")
                        .contains("must lie between minLimit 1 and maxLimit 5");
                    assertThat(ex.getFix()).contains("from min-limit (1) to max-limit (5)");
                }));
    }

    private static BulkheadConfig resolve(ResilienceProperties properties, @Nullable Bulkhead annotation) {
        return new BulkheadConfigResolver(properties).resolve("inventory", annotation);
    }

    private static Function<BulkheadConfig, Object> setting(String key) {
        return switch (key) {
            case "type" -> BulkheadConfig::type;
            case "max-concurrent-calls" -> BulkheadConfig::maxConcurrentCalls;
            case "max-wait" -> BulkheadConfig::maxWait;
            case "min-limit" -> BulkheadConfig::minLimit;
            case "max-limit" -> BulkheadConfig::maxLimit;
            case "algorithm" -> BulkheadConfig::algorithm;
            case "latency-threshold" -> BulkheadConfig::latencyThreshold;
            default -> throw new IllegalArgumentException(key);
        };
    }

    private static Bulkhead bulkhead(String method) {
        return ReflectionUtils.findMethod(Annotated.class, method).getAnnotation(Bulkhead.class);
    }

    static class Annotated {

        @Bulkhead("inventory")
        void unset() {
        }

        @Bulkhead(name = "inventory", type = "adaptive", maxConcurrentCalls = 8, maxWait = "10s")
        void everySet() {
        }

        @Bulkhead(name = "inventory", type = "elastic")
        void badType() {
        }

        @Bulkhead(name = "inventory", maxWait = "109500d")
        void centuriesOfWaiting() {
        }

    }

}
