package dev.resilience.actuate.endpoint;

import dev.resilience.actuate.endpoint.RetriesEndpoint.RetryDescriptor;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RetriesEndpoint} reports the durations of a retry instance as they are
 * configured, whatever their length.
 */
class RetriesEndpointTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withBean(Ledger.class);

    @Test
    void attemptTimeoutAndDeadlineOfCenturiesAreReportedAsConfigured() {
        this.contextRunner
            .withPropertyValues("resilience.retry.instances.ledger.attempt-timeout=109500d",
                    "resilience.retry.instances.ledger.max-duration=200000d")
            .run((context) -> {
                RetryDescriptor ledger = new RetriesEndpoint(context.getBean(ResilienceRegistry.class)).retries()
                    .retries()
                    .get("ledger");
                assertThat(ledger.attemptTimeout()).isEqualTo("109500d");
                assertThat(ledger.maxDuration()).isEqualTo("200000d");
            });
    }

    static class Ledger {

        @Retryable("ledger")
        public String balance(String account) {
            return "balance of " + account;
        }

    }

}
