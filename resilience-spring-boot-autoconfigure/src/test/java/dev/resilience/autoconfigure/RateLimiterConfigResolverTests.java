package dev.resilience.autoconfigure;

import java.util.function.Function;

import dev.resilience.annotation.RateLimited;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
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
 * The precedence of a rate limiter's settings: YAML instance &gt; annotation &gt; YAML
 * defaults &gt; built-in, one key at a time.
 */
class RateLimiterConfigResolverTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withUserConfiguration(PropertiesConfiguration.class);

    @Test
    void withoutPropertiesOrAnnotationTheConfigHasTheBuiltInDefaults() {
        this.contextRunner.run((context) -> assertThat(resolve(context.getBean(ResilienceProperties.class), null))
            .hasToString(RateLimiterConfig.ofDefaults().toString()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            limit   | 20    | 20
            period  | 10s   | PT10S
            timeout | 300ms | PT0.3S
            """)
    void defaultPropertyAppliesWhenTheAnnotationLeavesTheSettingUnset(String key, String value, String expected) {
        this.contextRunner.withPropertyValues("resilience.rate-limiter.defaults." + key + "=" + value)
            .run((context) -> assertThat(
                    setting(key).apply(resolve(context.getBean(ResilienceProperties.class), rateLimited("unset"))))
                .hasToString(expected));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            limit   | 20    | 5
            period  | 10s   | PT1S
            timeout | 300ms | PT0.1S
            """)
    void annotationOverridesTheDefaultProperties(String key, String value, String expected) {
        this.contextRunner.withPropertyValues("resilience.rate-limiter.defaults." + key + "=" + value)
            .run((context) -> assertThat(
                    setting(key).apply(resolve(context.getBean(ResilienceProperties.class), rateLimited("everySet"))))
                .hasToString(expected));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            limit   | 20    | 20
            period  | 10s   | PT10S
            timeout | 300ms | PT0.3S
            """)
    void instancePropertyOverridesTheAnnotation(String key, String value, String expected) {
        this.contextRunner.withPropertyValues("resilience.rate-limiter.instances.quotes." + key + "=" + value)
            .run((context) -> assertThat(
                    setting(key).apply(resolve(context.getBean(ResilienceProperties.class), rateLimited("everySet"))))
                .hasToString(expected));
    }

    @Test
    void memoryStoreIsAccepted() {
        this.contextRunner.withPropertyValues("resilience.rate-limiter.defaults.store=memory")
            .run((context) -> assertThat(resolve(context.getBean(ResilienceProperties.class), rateLimited("unset")))
                .isNotNull());
    }

    @Test
    void redisStoreOfAnInstanceFailsTheStartAsNotSupportedYet() {
        this.contextRunner.withPropertyValues("resilience.rate-limiter.instances.quotes.store=redis")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Property: resilience.rate-limiter.instances[quotes].store")
                .contains("redis is not supported yet for rate limiters: use memory"));
    }

    @Test
    void durationThatDoesNotParseNamesTheAttribute() {
        this.contextRunner.run((context) -> assertThatExceptionOfType(InvalidResiliencePolicyException.class)
            .isThrownBy(() -> resolve(context.getBean(ResilienceProperties.class), rateLimited("badPeriod")))
            .withMessageContaining("@RateLimited(period)")
            .withMessageContaining("'a second' is not a duration"));
    }

    @Test
    void periodBelowTheCoreMinimumNamesTheAttribute() {
        this.contextRunner.run((context) -> assertThatExceptionOfType(InvalidResiliencePolicyException.class)
            .isThrownBy(() -> resolve(context.getBean(ResilienceProperties.class), rateLimited("tooShort")))
            .withMessageContaining("@RateLimited(period)")
            .withMessageContaining("period must be between PT0.001S and PT24H"));
    }

    private static RateLimiterConfig resolve(ResilienceProperties properties, @Nullable RateLimited annotation) {
        return new RateLimiterConfigResolver(properties).resolve("quotes", annotation);
    }

    private static Function<RateLimiterConfig, Object> setting(String key) {
        return switch (key) {
            case "limit" -> RateLimiterConfig::limit;
            case "period" -> RateLimiterConfig::period;
            case "timeout" -> RateLimiterConfig::timeout;
            default -> throw new IllegalArgumentException(key);
        };
    }

    private static RateLimited rateLimited(String method) {
        return ReflectionUtils.findMethod(Annotated.class, method).getAnnotation(RateLimited.class);
    }

    static class Annotated {

        @RateLimited("quotes")
        void unset() {
        }

        @RateLimited(name = "quotes", limit = 5, period = "1s", timeout = "100ms")
        void everySet() {
        }

        @RateLimited(name = "quotes", period = "a second")
        void badPeriod() {
        }

        @RateLimited(name = "quotes", period = "500us")
        void tooShort() {
        }

    }

}
