package dev.resilience.test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The application the tests of this module start: the starter's auto-configuration and
 * one protected bean, {@link Gateway}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class ResilienceTestApplication {

    @Bean
    Gateway gateway() {
        return new Gateway();
    }

}
