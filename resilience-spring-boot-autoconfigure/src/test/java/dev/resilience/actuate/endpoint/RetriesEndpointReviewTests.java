package dev.resilience.actuate.endpoint;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A retry instance's {@code attempt-timeout} has no upper bound, so one of centuries
 * starts the application; {@code /actuator/retries} must then report it rather than fail,
 * or the start must refuse it naming the setting.
 */
class RetriesEndpointReviewTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withBean(Ledger.class);

    /** An attempt timeout of 300 years is either refused at startup or reported. */
    @Test
    void retryInstanceWhoseAttemptTimeoutIsCenturiesIsReportedOrRefusedAtStartup() {
        this.contextRunner.withPropertyValues("resilience.retry.instances.ledger.attempt-timeout=109500d")
            .run((context) -> {
                if (context.getStartupFailure() != null) {
                    assertThat(FailureAnalyses.describe(context.getStartupFailure())).contains("attempt-timeout");
                    return;
                }
                RetriesEndpoint endpoint = new RetriesEndpoint(context.getBean(ResilienceRegistry.class));
                assertThat(endpoint.retries().retries()).containsKey("ledger");
            });
    }

    static class Ledger {

        @Retryable("ledger")
        public String balance(String account) {
            return "balance of " + account;
        }

    }

}
