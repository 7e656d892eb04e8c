package dev.resilience.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import dev.resilience.annotation.Retryable;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class RetryPolicyResolverTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withUserConfiguration(PropertiesConfiguration.class);

    private final VirtualTimeSource clock = new VirtualTimeSource();

    @Test
    void withoutPropertiesOrAnnotationThePolicyHasTheBuiltInDefaults() {
        this.contextRunner.run((context) -> {
            RetryPolicy policy = resolver(context.getBean(ResilienceProperties.class)).resolve("payment", null);
            assertThat(policy.maxAttempts()).isEqualTo(RetryPolicy.DEFAULT_MAX_ATTEMPTS);
            assertThat(policy.backoff()).isEqualTo(Backoff.of(Backoff.DEFAULT_DELAY, Backoff.DEFAULT_MULTIPLIER,
                    Backoff.DEFAULT_MAX_DELAY, Backoff.DEFAULT_JITTER));
            assertThat(policy.retryOn()).isEmpty();
            assertThat(policy.abortOn()).isEmpty();
            assertThat(policy.attemptTimeout()).isNull();
            assertThat(policy.maxDuration()).isNull();
            RetryBudget budget = policy.budget();
            assertThat(budget).isNotNull();
            assertThat(budget.ratio()).isEqualTo(RetryBudget.DEFAULT_RATIO);
            assertThat(budget.minRetriesPerSecond()).isEqualTo(RetryBudget.DEFAULT_MIN_RETRIES_PER_SECOND);
            assertThat(budget.window()).isEqualTo(RetryBudget.DEFAULT_WINDOW);
        });
    }

    @Test
    void annotationAttributesOverrideTheBuiltInDefaults() {
        this.contextRunner.run((context) -> {
            RetryPolicy policy = resolver(context.getBean(ResilienceProperties.class)).resolve("payment",
                    retryable("everything"));
            assertThat(policy.maxAttempts()).isEqualTo(6);
            assertThat(policy.backoff())
                .isEqualTo(Backoff.of(Duration.ofMillis(50), 3.0, Duration.ofSeconds(1), Jitter.EQUAL));
            assertThat(policy.retryOn()).containsExactly(IOException.class);
            assertThat(policy.abortOn()).containsExactly(IllegalStateException.class);
            assertThat(policy.attemptTimeout()).isEqualTo(Duration.ofSeconds(2));
            assertThat(policy.maxDuration()).isEqualTo(Duration.ofSeconds(20));
        });
    }

    @Test
    void defaultPropertiesApplyWhereTheAnnotationLeavesASettingUnset() {
        this.contextRunner
            .withPropertyValues("resilience.retry.defaults.max-attempts=5", "resilience.retry.defaults.delay=1s",
                    "resilience.retry.defaults.max-delay=8s", "resilience.retry.defaults.jitter=none",
                    "resilience.retry.defaults.abort-on=java.lang.IllegalArgumentException",
                    "resilience.retry.defaults.max-duration=30s")
            .run((context) -> {
                RetryPolicy policy = resolver(context.getBean(ResilienceProperties.class)).resolve("payment",
                        retryable("named"));
                assertThat(policy.maxAttempts()).isEqualTo(5);
                assertThat(policy.backoff()).isEqualTo(Backoff.of(Duration.ofSeconds(1), Backoff.DEFAULT_MULTIPLIER,
                        Duration.ofSeconds(8), Jitter.NONE));
                assertThat(policy.abortOn()).containsExactly(IllegalArgumentException.class);
                assertThat(policy.maxDuration()).isEqualTo(Duration.ofSeconds(30));
            });
    }

    @Test
    void annotationAttributesWinOverDefaultProperties() {
        this.contextRunner
            .withPropertyValues("resilience.retry.defaults.max-attempts=5", "resilience.retry.defaults.delay=10ms",
                    "resilience.retry.defaults.retry-on=java.util.concurrent.TimeoutException",
                    "resilience.retry.defaults.attempt-timeout=9s")
            .run((context) -> {
                RetryPolicy policy = resolver(context.getBean(ResilienceProperties.class)).resolve("payment",
                        retryable("everything"));
                assertThat(policy.maxAttempts()).isEqualTo(6);
                assertThat(policy.backoff().delay()).isEqualTo(Duration.ofMillis(50));
                assertThat(policy.retryOn()).containsExactly(IOException.class);
                assertThat(policy.attemptTimeout()).isEqualTo(Duration.ofSeconds(2));
            });
    }

    @Test
    void instancePropertiesWinOverTheAnnotationSettingBySetting() {
        this.contextRunner
            .withPropertyValues("resilience.retry.instances.payment.max-attempts=2",
                    "resilience.retry.instances.payment.delay=10ms",
                    "resilience.retry.instances.payment.retry-on=java.util.concurrent.TimeoutException",
                    "resilience.retry.defaults.max-attempts=9")
            .run((context) -> {
                RetryPolicy policy = resolver(context.getBean(ResilienceProperties.class)).resolve("payment",
                        retryable("everything"));
                assertThat(policy.maxAttempts()).isEqualTo(2);
                assertThat(policy.backoff())
                    .isEqualTo(Backoff.of(Duration.ofMillis(10), 3.0, Duration.ofSeconds(1), Jitter.EQUAL));
                assertThat(policy.retryOn()).containsExactly(TimeoutException.class);
                assertThat(policy.abortOn()).containsExactly(IllegalStateException.class);
            });
    }

    @Test
    void emptyExceptionListOnAnInstanceWinsOverTheAnnotationsList() {
        this.contextRunner.withPropertyValues("resilience.retry.instances.payment.retry-on=")
            .run((context) -> assertThat(
                    resolver(context.getBean(ResilienceProperties.class)).resolve("payment", retryable("everything"))
                        .retryOn())
                .isEmpty());
    }

    @Test
    void instancePropertiesOfAnotherNameDoNotApply() {
        this.contextRunner.withPropertyValues("resilience.retry.instances.inventory.max-attempts=7")
            .run((context) -> assertThat(
                    resolver(context.getBean(ResilienceProperties.class)).resolve("payment", null).maxAttempts())
                .isEqualTo(RetryPolicy.DEFAULT_MAX_ATTEMPTS));
    }

    @Test
    void everyResolutionOfOneNameSharesOneBudgetAndEachNameHasItsOwn() {
        this.contextRunner.run((context) -> {
            RetryPolicyResolver resolver = resolver(context.getBean(ResilienceProperties.class));
            RetryBudget first = resolver.resolve("payment", retryable("named")).budget();
            RetryBudget second = resolver.resolve("payment", null).budget();
            RetryBudget other = resolver.resolve("inventory", null).budget();
            assertThat(first).isNotNull().isSameAs(second);
            assertThat(other).isNotNull().isNotSameAs(first);
        });
    }

    @Test
    void budgetDisabledInTheDefaultsGivesNoBudget() {
        this.contextRunner.withPropertyValues("resilience.retry.defaults.budget.enabled=false")
            .run((context) -> assertThat(
                    resolver(context.getBean(ResilienceProperties.class)).resolve("payment", null).budget())
                .isNull());
    }

    @Test
    void budgetEnabledOnAnInstanceWinsOverDefaultsThatDisableIt() {
        this.contextRunner
            .withPropertyValues("resilience.retry.defaults.budget.enabled=false",
                    "resilience.retry.instances.payment.budget.enabled=true")
            .run((context) -> assertThat(
                    resolver(context.getBean(ResilienceProperties.class)).resolve("payment", null).budget())
                .isNotNull());
    }

    @Test
    void budgetTakesItsSettingsFromTheInstanceThenTheDefaultsAndCountsOnTheGivenClock() {
        this.contextRunner
            .withPropertyValues("resilience.retry.defaults.budget.ratio=0",
                    "resilience.retry.defaults.budget.window=2s",
                    "resilience.retry.instances.payment.budget.min-retries-per-second=1")
            .run((context) -> {
                RetryBudget budget = resolver(context.getBean(ResilienceProperties.class)).resolve("payment", null)
                    .budget();
                assertThat(budget.ratio()).isZero();
                assertThat(budget.minRetriesPerSecond()).isEqualTo(1);
                assertThat(budget.window()).isEqualTo(Duration.ofSeconds(2));
                assertThat(budget.tryAcquireRetry()).isTrue();
                assertThat(budget.tryAcquireRetry()).isFalse();
                this.clock.advance(Duration.ofMillis(999));
                assertThat(budget.tryAcquireRetry()).isFalse();
                this.clock.advance(Duration.ofMillis(1));
                assertThat(budget.tryAcquireRetry()).isTrue();
            });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|',
            textBlock = """
                    unparsableDelay        | @Retryable(delay)          | soon   | is not a duration                        | Use a duration such as "200ms" or "2s".
                    unparsableMaxDuration  | @Retryable(maxDuration)    | 1 hour | is not a duration                        | Use a duration such as "200ms" or "2s".
                    unknownJitter          | @Retryable(jitter)         | wild   | valid values are none, full, equal, decorrelated | Use one of none, full, equal or decorrelated.
                    multiplierBelowOne     | @Retryable(multiplier)     | 0.5    | multiplier must be a finite number >= 1.0 | Use 1.0 for a fixed delay
                    negativeMaxAttempts    | @Retryable(maxAttempts)    | -1     | maxAttempts must be >= 1                 | or 0 for the configured default.
                    zeroAttemptTimeout     | @Retryable(attemptTimeout) | 0s     | attemptTimeout must be positive          | Use a positive duration
                    maxDelayBelowTheDelay  | @Retryable(maxDelay)       | 100ms  | must be >= the delay of 200ms from the built-in default of resilience.retry.defaults.delay | Raise the maximum delay or lower the delay.
                    """)
    void invalidAnnotationValueIsReportedWithItsSettingValueReasonAndFix(String method, String setting, String value,
            String reason, String fix) {
        this.contextRunner.run((context) -> {
            RetryPolicyResolver resolver = resolver(context.getBean(ResilienceProperties.class));
            assertThatExceptionOfType(InvalidResiliencePolicyException.class)
                .isThrownBy(() -> resolver.resolve("payment", retryable(method)))
                .satisfies((ex) -> {
                    assertThat(ex.getSubject()).isEqualTo("payment");
                    assertThat(ex.getSetting()).isEqualTo(setting);
                    assertThat(ex.getValue()).isEqualTo(value);
                    assertThat(ex.getReason()).contains(reason);
                    assertThat(ex.getFix()).contains(fix);
                });
        });
    }

    @Test
    void invalidCombinationAcrossLevelsIsReportedAgainstTheInstanceProperty() {
        this.contextRunner
            .withPropertyValues("resilience.retry.defaults.delay=1s",
                    "resilience.retry.instances.payment.max-delay=100ms")
            .run((context) -> assertThatExceptionOfType(InvalidResiliencePolicyException.class)
                .isThrownBy(() -> resolver(context.getBean(ResilienceProperties.class)).resolve("payment", null))
                .satisfies((ex) -> {
                    assertThat(ex.getSetting()).isEqualTo("resilience.retry.instances.payment.max-delay");
                    assertThat(ex.getValue()).isEqualTo("100ms");
                    assertThat(ex.getReason()).contains("1s from resilience.retry.defaults.delay");
                }));
    }

    @Test
    void instanceNamedAfterItsMethodIsReportedWithTheBracketedPropertyName() {
        this.contextRunner.withPropertyValues("resilience.retry.instances[PaymentService#pay].max-delay=100ms")
            .run((context) -> assertThatExceptionOfType(InvalidResiliencePolicyException.class)
                .isThrownBy(
                        () -> resolver(context.getBean(ResilienceProperties.class)).resolve("PaymentService#pay", null))
                .satisfies((ex) -> assertThat(ex.getSetting())
                    .isEqualTo("resilience.retry.instances[PaymentService#pay].max-delay")));
    }

    private RetryPolicyResolver resolver(ResilienceProperties properties) {
        return new RetryPolicyResolver(properties, this.clock);
    }

    private static Retryable retryable(String method) {
        return ReflectionUtils.findMethod(AnnotatedMethods.class, method).getAnnotation(Retryable.class);
    }

    static class AnnotatedMethods {

        @Retryable(maxAttempts = 6, delay = "50ms", multiplier = 3, maxDelay = "1s", jitter = "equal",
                retryOn = IOException.class, abortOn = IllegalStateException.class, attemptTimeout = "2s",
                maxDuration = "20s")
        void everything() {
        }

        @Retryable("payment")
        void named() {
        }

        @Retryable(delay = "soon")
        void unparsableDelay() {
        }

        @Retryable(maxDuration = "1 hour")
        void unparsableMaxDuration() {
        }

        @Retryable(jitter = "wild")
        void unknownJitter() {
        }

        @Retryable(multiplier = 0.5)
        void multiplierBelowOne() {
        }

        @Retryable(maxAttempts = -1)
        void negativeMaxAttempts() {
        }

        @Retryable(attemptTimeout = "0s")
        void zeroAttemptTimeout() {
        }

        @Retryable(maxDelay = "100ms")
        void maxDelayBelowTheDelay() {
        }

    }

}
