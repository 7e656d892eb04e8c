package dev.resilience.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import dev.resilience.annotation.RateLimited;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.ratelimiter.RateLimiterStore;
import dev.resilience.core.ratelimiter.SharedPermits;
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

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|',
            textBlock = """
                    nothing sets it                               | unset    |                                         | memory
                    the defaults                                  | unset    | resilience.rate-limiter.defaults.store=redis | redis
                    the annotation over the defaults              | inMemory | resilience.rate-limiter.defaults.store=redis | memory
                    the annotation                                | inRedis  |                                         | redis
                    the instance over the annotation              | inRedis  | resilience.rate-limiter.instances.quotes.store=memory | memory
                    """)
    void storeFollowsTheSamePrecedence(String source, String method, String property, String expected) {
        this.contextRunner.withPropertyValues((property != null) ? new String[] { property } : new String[0])
            .run((context) -> {
                RecordingStore store = new RecordingStore();
                SharedPermits permits = new RateLimiterConfigResolver(context.getBean(ResilienceProperties.class),
                        () -> store)
                    .sharedPermits("quotes", rateLimited(method), RateLimiterConfig.ofDefaults());

                assertThat((permits != null) ? "redis" : "memory").isEqualTo(expected);
                assertThat(store.names).isEqualTo("redis".equals(expected) ? List.of("quotes") : List.of());
            });
    }

    @Test
    void redisStoreWithoutAConnectionFactoryNamesThePropertyAndTheFix() {
        this.contextRunner.withPropertyValues("resilience.rate-limiter.instances.quotes.store=redis")
            .run((context) -> assertThatExceptionOfType(InvalidResiliencePolicyException.class)
                .isThrownBy(() -> new RateLimiterConfigResolver(context.getBean(ResilienceProperties.class), () -> null)
                    .sharedPermits("quotes", null, RateLimiterConfig.ofDefaults()))
                .satisfies((ex) -> assertThat(FailureAnalyses.describe(ex))
                    .contains("Setting: resilience.rate-limiter.instances.quotes.store")
                    .contains("Value: \"redis\"")
                    .contains("the application has no RedisConnectionFactory to share the limit through")
                    .contains("spring.data.redis.host")
                    .contains("or use store: memory")));
    }

    @Test
    void settingsTheStoreCannotKeepAreReportedAgainstTheStore() {
        this.contextRunner.withPropertyValues("resilience.rate-limiter.defaults.store=redis")
            .run((context) -> assertThatExceptionOfType(InvalidResiliencePolicyException.class)
                .isThrownBy(() -> new RateLimiterConfigResolver(context.getBean(ResilienceProperties.class),
                        () -> (name, config) -> {
                            throw new IllegalArgumentException("too fast for this store");
                        })
                    .sharedPermits("quotes", null, RateLimiterConfig.ofDefaults()))
                .withMessageContaining("resilience.rate-limiter.defaults.store")
                .withMessageContaining("too fast for this store"));
    }

    @Test
    void storeThatIsNoneNamesTheAttribute() {
        this.contextRunner.run((context) -> assertThatExceptionOfType(InvalidResiliencePolicyException.class)
            .isThrownBy(() -> new RateLimiterConfigResolver(context.getBean(ResilienceProperties.class), () -> null)
                .sharedPermits("quotes", rateLimited("onDisk"), RateLimiterConfig.ofDefaults()))
            .withMessageContaining("@RateLimited(store)")
            .withMessageContaining("'disk' is not a rate limiter store"));
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
        return new RateLimiterConfigResolver(properties, () -> null).resolve("quotes", annotation);
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

        @RateLimited(name = "quotes", store = "memory")
        void inMemory() {
        }

        @RateLimited(name = "quotes", store = "redis")
        void inRedis() {
        }

        @RateLimited(name = "quotes", store = "disk")
        void onDisk() {
        }

    }

    /**
     * A store that records the names it made permits for.
     */
    static final class RecordingStore implements RateLimiterStore {

        private final List<String> names = new ArrayList<>();

        @Override
        public SharedPermits permits(String name, RateLimiterConfig config) {
            this.names.add(name);
            return new SharedPermits() {

                @Override
                public long take(long now, long maxWaitNanos) {
                    return 0;
                }

                @Override
                public boolean giveBack(long now, long waitNanos) {
                    return false;
                }

                @Override
                public int availablePermits(long now) {
                    return -1;
                }

                @Override
                public String store() {
                    return "recording";
                }

                @Override
                public long storeErrors() {
                    return 0;
                }

            };
        }

    }

}
