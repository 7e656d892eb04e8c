package dev.resilience.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The order service: orders, payments through two gateways, and a price oracle.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SampleOrderServiceApplication {

    /**
     * Starts the application.
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        SpringApplication.run(SampleOrderServiceApplication.class, args);
    }

}
