package dev.resilience.aop;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure analysis of two annotations that configure one name differently gives a fix
 * the user can follow (DESIGN section 4: the analysis names the property and the fix).
 * For the result predicates it offers
 * {@code resilience.circuit-breaker.instances.<name>.fail-on-result} and
 * {@code resilience.retry.instances.<name>.retry-on-result}, properties that do not
 * exist: setting one fails the start again, as an unknown key under {@code resilience.}.
 */
class InstanceNameConflictsReviewTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class);

    /**
     * Following the analysis of two failOnResult expressions of one breaker starts the
     * context.
     */
    @Test
    void fixOfTwoFailOnResultExpressionsOfOneBreakerNamesNoPropertyThatDoesNotExist() {
        String property = "resilience.circuit-breaker.instances.settlement.fail-on-result";
        this.contextRunner.withBean(PendingSettlements.class).withBean(DeclinedSettlements.class).run((context) -> {
            String analysis = FailureAnalyses.describe(context.getStartupFailure());
            assertThat(analysis).contains("@CircuitGuarded(failOnResult)");
            if (analysis.contains(property)) {
                this.contextRunner.withPropertyValues(property + "=#result == 'PENDING'")
                    .run((followed) -> assertThat(followed).as("the start with the property the analysis names")
                        .hasNotFailed());
            }
        });
    }

    /**
     * Following the analysis of two retryOnResult expressions of one retry instance
     * starts the context.
     */
    @Test
    void fixOfTwoRetryOnResultExpressionsOfOneRetryInstanceNamesNoPropertyThatDoesNotExist() {
        String property = "resilience.retry.instances.statuses.retry-on-result";
        this.contextRunner.withBean(PendingStatuses.class).withBean(UnknownStatuses.class).run((context) -> {
            String analysis = FailureAnalyses.describe(context.getStartupFailure());
            assertThat(analysis).contains("@Retryable(retryOnResult)");
            if (analysis.contains(property)) {
                this.contextRunner.withPropertyValues(property + "=#result == 'PENDING'")
                    .run((followed) -> assertThat(followed).as("the start with the property the analysis names")
                        .hasNotFailed());
            }
        });
    }

    static class PendingSettlements {

        @CircuitGuarded(name = "settlement", failOnResult = "#result == 'PENDING'")
        public String settle(String orderId) {
            return orderId;
        }

    }

    static class DeclinedSettlements {

        @CircuitGuarded(name = "settlement", failOnResult = "#result == 'DECLINED'")
        public String settle(String orderId) {
            return orderId;
        }

    }

    static class PendingStatuses {

        @Retryable(name = "statuses", retryOnResult = "#result == 'PENDING'")
        public String status(String orderId) {
            return orderId;
        }

    }

    static class UnknownStatuses {

        @Retryable(name = "statuses", retryOnResult = "#result == 'UNKNOWN'")
        public String status(String orderId) {
            return orderId;
        }

    }

}
