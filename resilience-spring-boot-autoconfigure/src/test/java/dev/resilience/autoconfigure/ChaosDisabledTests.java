package dev.resilience.autoconfigure;

import dev.resilience.annotation.Retryable;
import dev.resilience.chaos.ChaosInstances;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chaos switched off ({@code resilience.chaos.enabled} false or absent) while its
 * instances stay configured, as a production profile leaves a shared
 * {@code application.yml}: README says off means "no fault, no endpoint, one null check
 * per call", so nothing under {@code resilience.chaos.instances} can stop the start.
 */
class ChaosDisabledTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withPropertyValues(FingerprintSecret.PROPERTY,
                "resilience.chaos.instances[Orders#place].exception=com.example.chaos.OnlyOnTheTestClasspath")
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withUserConfiguration(OrdersConfiguration.class);

    @Test
    void disabledChaosWithAnExceptionClassThatIsNotOnTheClasspathStillStarts() {
        this.contextRunner.withPropertyValues("resilience.chaos.enabled=false").run((context) -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(ChaosInstances.class);
            assertThat(context.getBean(Orders.class).place()).isEqualTo("placed");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class OrdersConfiguration {

        @Bean
        Orders orders() {
            return new Orders();
        }

    }

    static class Orders {

        @Retryable(maxAttempts = 1)
        public String place() {
            return "placed";
        }

    }

}
