package dev.resilience.aop;

import java.time.ZoneId;
import java.util.Locale;

import dev.resilience.annotation.Fallback;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceMetricsAutoConfiguration;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.time.VirtualTimeSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Review findings on {@link LastGoodKeys}: a call with other arguments is served another
 * call's last good value.
 */
class LastGoodKeysReviewTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class, ResilienceMetricsAutoConfiguration.class))
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean(VirtualTimeSource.class)
        .withBean(LocalizedPrices.class);

    @Test
    void callInAnotherLocaleIsNotServedTheValueOfAnotherLocale() {
        this.contextRunner.run((context) -> {
            LocalizedPrices prices = context.getBean(LocalizedPrices.class);
            assertThat(prices.price("ETH", Locale.US).value()).isEqualTo("ETH 3,000.50 USD");
            prices.down(true);

            ExecutionResult<String> german = prices.price("ETH", Locale.GERMANY);

            assertThat(german.value()).as("a German caller served the US price, other currency")
                .isNotEqualTo("ETH 3,000.50 USD");
            assertThat(german.status()).isEqualTo(ExecutionStatus.ERROR);
        });
    }

    @Test
    void callInAnotherZoneIsNotServedTheValueOfAnotherZone() {
        this.contextRunner.run((context) -> {
            LocalizedPrices prices = context.getBean(LocalizedPrices.class);
            assertThat(prices.openingHours(ZoneId.of("America/New_York")).value()).isEqualTo("opens America/New_York");
            prices.down(true);

            ExecutionResult<String> tokyo = prices.openingHours(ZoneId.of("Asia/Tokyo"));

            assertThat(tokyo.value()).as("a Tokyo caller served New York's opening hours")
                .isNotEqualTo("opens America/New_York");
        });
    }

    @Test
    void overloadWithEqualArgumentsIsNotServedTheOtherOverloadsValue() {
        this.contextRunner.withBean(Codes.class).run((context) -> {
            Codes codes = context.getBean(Codes.class);
            assertThat(codes.describe(5)).isEqualTo("int code 5");
            codes.down(true);

            assertThatIllegalStateException().as("describe(long) is not served describe(int)'s value")
                .isThrownBy(() -> codes.describe(5L))
                .withMessage("down");
        });
    }

    @Test
    void beansOfEqualSimpleNamesAreNotServedEachOthersValues() {
        this.contextRunner.withBean(Eu.Prices.class).withBean(Us.Prices.class).run((context) -> {
            Eu.Prices eu = context.getBean(Eu.Prices.class);
            Us.Prices us = context.getBean(Us.Prices.class);
            assertThat(eu.price("ETH")).isEqualTo("2750.10 EUR");
            us.down(true);

            assertThatIllegalStateException().as("the US price of ETH, never produced, is not the EU one")
                .isThrownBy(() -> us.price("ETH"));
        });
    }

    public static class Codes {

        private volatile boolean down;

        public void down(boolean down) {
            this.down = down;
        }

        @Fallback(lastGood = "1h")
        public String describe(int code) {
            if (this.down) {
                throw new IllegalStateException("down");
            }
            return "int code " + code;
        }

        @Fallback(lastGood = "1h")
        public Long describe(long code) {
            if (this.down) {
                throw new IllegalStateException("down");
            }
            return code * 100;
        }

    }

    public static class Eu {

        public static class Prices {

            @Fallback(lastGood = "1h")
            public String price(String symbol) {
                return "2750.10 EUR";
            }

        }

    }

    public static class Us {

        public static class Prices {

            private volatile boolean down;

            public void down(boolean down) {
                this.down = down;
            }

            @Fallback(lastGood = "1h")
            public String price(String symbol) {
                if (this.down) {
                    throw new IllegalStateException("down");
                }
                return "3000.50 USD";
            }

        }

    }

    public static class LocalizedPrices {

        private volatile boolean down;

        public void down(boolean down) {
            this.down = down;
        }

        @Fallback(lastGood = "1h")
        public ExecutionResult<String> price(String symbol, Locale locale) {
            if (this.down) {
                throw new IllegalStateException("oracle down");
            }
            return ExecutionResult
                .success(Locale.US.equals(locale) ? symbol + " 3,000.50 USD" : symbol + " 2.750,10 EUR");
        }

        @Fallback(lastGood = "1h")
        public ExecutionResult<String> openingHours(ZoneId zone) {
            if (this.down) {
                throw new IllegalStateException("oracle down");
            }
            return ExecutionResult.success("opens " + zone);
        }

    }

}
