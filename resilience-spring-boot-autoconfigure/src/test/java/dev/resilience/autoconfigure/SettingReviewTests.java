package dev.resilience.autoconfigure;

import dev.resilience.annotation.Bulkhead;
import dev.resilience.annotation.Hedged;
import dev.resilience.annotation.RateLimited;
import dev.resilience.annotation.TimeLimited;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An annotation duration out of range by centuries (more nanoseconds than a long holds)
 * is reported as any other out-of-range value: the start fails with a failure analysis
 * naming the bean, the method, the attribute and the fix (DESIGN section 4), not with a
 * bare {@code ArithmeticException} that no failure analyzer recognizes.
 */
class SettingReviewTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class);

    /**
     * A rate limiter's wait of 300 years (at most 1h is valid) fails with an analysis.
     */
    @Test
    void rateLimiterTimeoutOfThreeHundredYearsFailsTheStartWithAFailureAnalysis() {
        this.contextRunner.withBean("quotes", CenturiesOfWaiting.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("bean 'quotes', method CenturiesOfWaiting#quote")
                .contains("@RateLimited(timeout)"));
    }

    /**
     * A rate limiter's period of 300 years (at most 1d is valid) fails with an analysis.
     */
    @Test
    void rateLimiterPeriodOfThreeHundredYearsFailsTheStartWithAFailureAnalysis() {
        this.contextRunner.withBean("quotes", CenturiesOfPeriod.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("bean 'quotes', method CenturiesOfPeriod#quote")
                .contains("@RateLimited(period)"));
    }

    /** A hedging delay of 300 years (at most 1h is valid) fails with an analysis. */
    @Test
    void hedgingDelayOfThreeHundredYearsFailsTheStartWithAFailureAnalysis() {
        this.contextRunner.withBean("prices", CenturiesOfHedgingDelay.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("bean 'prices', method CenturiesOfHedgingDelay#price")
                .contains("@Hedged(delay)"));
    }

    /** A time limit of minus 300 years (it must be positive) fails with an analysis. */
    @Test
    void negativeTimeLimitOfThreeHundredYearsFailsTheStartWithAFailureAnalysis() {
        this.contextRunner.withBean("ledger", NegativeCenturiesOfTimeLimit.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("bean 'ledger', method NegativeCenturiesOfTimeLimit#balance")
                .contains("@TimeLimited(timeout)"));
    }

    /**
     * A bulkhead wait of minus 300 years (it must not be negative) fails with an
     * analysis.
     */
    @Test
    void negativeBulkheadWaitOfThreeHundredYearsFailsTheStartWithAFailureAnalysis() {
        this.contextRunner.withBean("stock", NegativeCenturiesOfBulkheadWait.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("bean 'stock', method NegativeCenturiesOfBulkheadWait#reserve")
                .contains("@Bulkhead(maxWait)"));
    }

    static class CenturiesOfWaiting {

        @RateLimited(name = "quotes", timeout = "109500d")
        public String quote() {
            return "quote";
        }

    }

    static class CenturiesOfPeriod {

        @RateLimited(name = "quotes", period = "109500d")
        public String quote() {
            return "quote";
        }

    }

    static class CenturiesOfHedgingDelay {

        @Hedged(name = "prices", delay = "109500d")
        public String price() {
            return "price";
        }

    }

    static class NegativeCenturiesOfTimeLimit {

        @TimeLimited(name = "ledger", timeout = "-109500d")
        public String balance() {
            return "balance";
        }

    }

    static class NegativeCenturiesOfBulkheadWait {

        @Bulkhead(name = "stock", maxWait = "-109500d")
        public String reserve() {
            return "reserved";
        }

    }

}
