package dev.resilience.autoconfigure;

import java.io.IOException;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerRegistry;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import dev.resilience.template.ResilienceTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one registry at startup: the beans created before the annotated methods are read
 * (the HTTP client's interceptor, a bean using {@code ResilienceTemplate}), and a
 * {@code CircuitBreakerRegistry} bean an application still defines.
 */
@SuppressWarnings("removal")
@ExtendWith(OutputCaptureExtension.class)
class RegistryStartupOrderTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ResilienceAutoConfiguration.class,
                ResilienceHttpClientAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withPropertyValues("resilience.retry.defaults.jitter=none", "resilience.retry.defaults.budget.enabled=false");

    @Test
    void httpClientSharingAnAnnotatedRetryInstanceResolvesItWithTheAnnotationAfterTheMethodsAreRead() {
        this.contextRunner
            .withPropertyValues("resilience.http-client.enabled=true", "resilience.http-client.retry=payment")
            .withBean(Payments.class)
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(ResilienceRegistry.class).findRetryPolicy("payment"))
                    .hasValueSatisfying((policy) -> assertThat(policy.maxAttempts()).isEqualTo(4));
            });
    }

    @Test
    void templateUsedWhileTheSingletonsAreCreatedKeepsTheYamlsSettingsAndWarnsOfTheAnnotations(CapturedOutput output) {
        this.contextRunner.withBean(Payments.class).withBean(WarmUp.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(ResilienceRegistry.class).findRetryPolicy("payment"))
                .hasValueSatisfying((policy) -> assertThat(policy.maxAttempts()).isEqualTo(3));
        });
        assertThat(output).contains(
                "@Retryable(delay = 1ms, maxAttempts = 4) does not apply: the retry instance " + "'payment'",
                "Set resilience.retry.instances.payment.delay, resilience.retry.instances.payment"
                        + ".max-attempts instead");
    }

    @Test
    void userDefinedCircuitBreakerRegistryIsNotSilentlyIgnored(CapturedOutput output) {
        this.contextRunner.withUserConfiguration(OwnBreakers.class)
            .withBean(Gateway.class)
            .run((context) -> assertThat(context).hasNotFailed());
        assertThat(output).contains("A CircuitBreakerRegistry bean is defined, and no longer used");
    }

    static class Payments {

        @Retryable(value = "payment", maxAttempts = 4, delay = "1ms")
        public String pay(String order) throws IOException {
            return "paid " + order;
        }

    }

    static class WarmUp {

        WarmUp(ResilienceTemplate template) {
            template.execute("payment", () -> "warm");
        }

    }

    static class Gateway {

        @CircuitGuarded("gateway")
        public String call() {
            return "ok";
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class OwnBreakers {

        @Bean
        CircuitBreakerRegistry circuitBreakerRegistry(TimeSource timeSource) {
            CircuitBreakerRegistry breakers = new CircuitBreakerRegistry(timeSource);
            breakers.breaker("gateway", CircuitBreakerConfig.ofDefaults());
            return breakers;
        }

    }

}
