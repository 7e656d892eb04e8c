package dev.resilience.actuate.endpoint;

import dev.resilience.annotation.Bulkhead;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bulkhead's {@code max-wait} has no upper bound, so a wait of centuries (more
 * nanoseconds than a long holds) starts the application; {@code /actuator/bulkheads} must
 * then report it rather than fail, or the start must refuse it naming the setting.
 */
class BulkheadsEndpointReviewTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withBean(Stock.class);

    /** A default max-wait of 300 years is either refused at startup or reported. */
    @Test
    void bulkheadWhoseYamlWaitIsCenturiesIsReportedOrRefusedAtStartup() {
        this.contextRunner.withPropertyValues("resilience.bulkhead.defaults.max-wait=109500d")
            .run((context) -> assertReportedOrRefused(context, "stock", "max-wait"));
    }

    /** An annotated max-wait of 300 years is either refused at startup or reported. */
    @Test
    void bulkheadWhoseAnnotatedWaitIsCenturiesIsReportedOrRefusedAtStartup() {
        this.contextRunner.withBean(PatientStock.class)
            .run((context) -> assertReportedOrRefused(context, "patient-stock", "@Bulkhead(maxWait)"));
    }

    private static void assertReportedOrRefused(AssertableApplicationContext context, String bulkhead, String setting) {
        if (context.getStartupFailure() != null) {
            assertThat(FailureAnalyses.describe(context.getStartupFailure())).contains(setting);
            return;
        }
        BulkheadsEndpoint endpoint = new BulkheadsEndpoint(context.getBean(ResilienceRegistry.class));
        assertThat(endpoint.bulkheads().bulkheads()).containsKey(bulkhead);
    }

    static class Stock {

        @Bulkhead("stock")
        public String reserve(String sku) {
            return "reserved " + sku;
        }

    }

    static class PatientStock {

        @Bulkhead(name = "patient-stock", maxWait = "109500d")
        public String reserve(String sku) {
            return "reserved " + sku;
        }

    }

}
