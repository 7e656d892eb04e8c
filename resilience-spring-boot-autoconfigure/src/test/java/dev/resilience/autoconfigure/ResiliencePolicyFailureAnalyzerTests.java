package dev.resilience.autoconfigure;

import dev.resilience.annotation.Retryable;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;

class ResiliencePolicyFailureAnalyzerTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withUserConfiguration(PropertiesConfiguration.class);

    @Test
    void analysisNamesTheSubjectSettingValueAndReasonAndGivesTheFixAsAction() {
        InvalidResiliencePolicyException failure = new InvalidResiliencePolicyException("payment", "@Retryable(delay)",
                "soon", "'soon' is not a duration", "Use a duration such as \"200ms\" or \"2s\".");
        FailureAnalysis analysis = new ResiliencePolicyFailureAnalyzer().analyze(failure);
        assertThat(analysis.getDescription()).contains("of payment:")
            .contains("Setting: @Retryable(delay)")
            .contains("Value: \"soon\"")
            .contains("Reason: 'soon' is not a duration");
        assertThat(analysis.getAction()).isEqualTo("Use a duration such as \"200ms\" or \"2s\".");
        assertThat(analysis.getCause()).isSameAs(failure);
    }

    @Test
    void startFailingOnAnInvalidAnnotationIsExplainedByTheRegisteredAnalyzer() {
        this.contextRunner.withUserConfiguration(PolicyConfiguration.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Invalid resilience setting of payment:")
                .contains("Setting: @Retryable(jitter)")
                .contains("Value: \"wild\"")
                .contains("Reason: Invalid jitter 'wild': valid values are none, full, equal, decorrelated")
                .contains("Action: Use one of none, full, equal or decorrelated."));
    }

    @Configuration(proxyBeanMethods = false)
    static class PolicyConfiguration {

        @Bean
        RetryPolicy paymentRetryPolicy(ResilienceProperties properties) {
            Retryable retryable = ReflectionUtils.findMethod(PolicyConfiguration.class, "pay")
                .getAnnotation(Retryable.class);
            return new RetryPolicyResolver(properties, new VirtualTimeSource()).resolve("payment", retryable);
        }

        @Retryable(jitter = "wild")
        void pay() {
        }

    }

}
