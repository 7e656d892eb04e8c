package dev.resilience.autoconfigure;

import dev.resilience.actuate.endpoint.ChaosEndpoint;
import dev.resilience.annotation.Retryable;
import dev.resilience.chaos.ChaosException;
import dev.resilience.chaos.ChaosInstances;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ChaosAutoConfigurationTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withPropertyValues(FingerprintSecret.PROPERTY, "management.endpoints.web.exposure.include=chaos",
                "resilience.chaos.instances[Orders#place].failure-rate=1.0")
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceEndpointsAutoConfiguration.class))
        .withUserConfiguration(OrdersConfiguration.class);

    @Test
    void whenChaosIsNotEnabledThenNothingIsInjectedAndThereIsNoEndpoint() {
        this.contextRunner.run((context) -> {
            assertThat(context).doesNotHaveBean(ChaosInstances.class).doesNotHaveBean(ChaosEndpoint.class);
            assertThat(context.getBean(Orders.class).place()).isEqualTo("placed");
        });
    }

    @Test
    void whenChaosIsEnabledThenTheConfiguredFaultsAreInjectedAndTheEndpointIsPresent() {
        this.contextRunner.withPropertyValues("resilience.chaos.enabled=true").run((context) -> {
            assertThat(context).hasSingleBean(ChaosInstances.class).hasSingleBean(ChaosEndpoint.class);
            assertThat(context.getBean(ChaosInstances.class).find("Orders#place")).isPresent();
            assertThatExceptionOfType(ChaosException.class).isThrownBy(() -> context.getBean(Orders.class).place());
        });
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', textBlock = """
            failure-rate | 1.5                      | must be between 0 and 1
            failure-rate | -0.1                     | must be between 0 and 1
            latency      | -1s                      | must be >= 0
            exception    | com.example.Missing      | class com.example.Missing not found
            exception    | java.io.IOException      | java.io.IOException is not a RuntimeException
            exception    | java.lang.String         | java.lang.String is not a RuntimeException
            """)
    void badValueFailsTheStartNamingTheProperty(String setting, String value, String reason) {
        String property = "resilience.chaos.instances[Orders#place]." + setting;
        this.contextRunner.withPropertyValues("resilience.chaos.enabled=true", property + "=" + value)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Property: " + property)
                .contains(reason));
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
