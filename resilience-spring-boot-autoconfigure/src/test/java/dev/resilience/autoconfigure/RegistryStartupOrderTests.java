package dev.resilience.autoconfigure;

import java.io.IOException;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerRegistry;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import dev.resilience.template.ResilienceTemplate;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Review of the one registry at startup: the beans created before the annotated methods
 * are compiled (the HTTP client's interceptor, a bean using {@code ResilienceTemplate}),
 * and the deprecated {@code CircuitBreakerRegistry} bean an application may inject or
 * define.
 */
@SuppressWarnings("removal")
class RegistryStartupOrderTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ResilienceAutoConfiguration.class,
                ResilienceHttpClientAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withPropertyValues("resilience.retry.defaults.jitter=none", "resilience.retry.defaults.budget.enabled=false");

    /**
     * The interceptor is a singleton, so it always resolves its retry instance before the
     * annotated methods are compiled. Sharing an annotated instance with outgoing calls
     * ({@code resilience.http-client.retry=payment}) started before the change, with the
     * annotation's settings on the method; README: "instances named only in YAML, by the
     * HTTP client or by ResilienceTemplate never conflict". Now the start always fails.
     */
    @Test
    void httpClientSharingAnAnnotatedRetryInstanceDoesNotFailTheStart() {
        this.contextRunner
            .withPropertyValues("resilience.http-client.enabled=true", "resilience.http-client.retry=payment")
            .withBean(Payments.class)
            .run((context) -> assertThat(context).hasNotFailed());
    }

    /**
     * ResilienceTemplate's Javadoc: "a name first used here before the context has
     * created its singletons ... is configured by the YAML alone, for the annotated
     * methods that name it too". A bean that warms up through the template while it is
     * created makes the start fail instead.
     */
    @Test
    void templateUsedWhileTheSingletonsAreCreatedDoesNotFailTheStart() {
        this.contextRunner.withBean(Payments.class)
            .withBean(WarmUp.class)
            .run((context) -> assertThat(context).hasNotFailed());
    }

    /**
     * The {@code CircuitBreakerRegistry} bean is gone without a deprecation period: a
     * bean of the application that injects it (it was a public, auto-configured bean)
     * fails the start with NoSuchBeanDefinitionException.
     */
    @Test
    void beanInjectingTheCircuitBreakerRegistryStillStarts() {
        this.contextRunner.withBean(BreakerReport.class).run((context) -> assertThat(context).hasNotFailed());
    }

    /**
     * An application that defined its own {@code CircuitBreakerRegistry} (the bean was
     * {@code @ConditionalOnMissingBean}) had its breakers used by the annotated methods,
     * endpoints and meters. Now the bean is silently ignored: another breaker of the same
     * name guards the method, and nothing tells the application.
     */
    @Test
    void userDefinedCircuitBreakerRegistryIsNotSilentlyIgnored() {
        this.contextRunner.withUserConfiguration(OwnBreakers.class).withBean(Gateway.class).run((context) -> {
            assertThat(context).hasNotFailed();
            CircuitBreaker own = context.getBean(CircuitBreakerRegistry.class).find("gateway").orElseThrow();
            assertThat(context.getBean(ResilienceRegistry.class).findCircuitBreaker("gateway"))
                .as("the breaker the application defined")
                .containsSame(own);
        });
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

    static class BreakerReport {

        BreakerReport(CircuitBreakerRegistry breakers) {
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
