package dev.resilience.feature;

import java.util.List;

import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application that already has a bean named {@code circuitBreakers} of its own type
 * (another library's breakers, a list of its own): the auto-configuration says every bean
 * backs off when the application defines its own, so the start must not fail on the name.
 */
class CircuitBreakersBeanNameTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withPropertyValues(FingerprintSecret.PROPERTY)
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withUserConfiguration(ApplicationBreakers.class);

    @Test
    void applicationBeanNamedCircuitBreakersOfAnotherTypeDoesNotFailTheStart() {
        this.contextRunner.run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(CircuitBreakers.BEAN_NAME)).isEqualTo(List.of("legacy-gateway"));
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class ApplicationBreakers {

        @Bean
        List<String> circuitBreakers() {
            return List.of("legacy-gateway");
        }

    }

}
