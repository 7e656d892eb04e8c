package dev.resilience.aop;

import java.time.Duration;
import java.time.Instant;

import dev.resilience.annotation.Fallback;
import dev.resilience.aop.LastGoodQuotes.Quote;
import dev.resilience.autoconfigure.FailureAnalyses;
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
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@code @Fallback(lastGood)} through the proxy, with the memory store: a failed call is
 * served the value the method last produced for the same arguments, before the named
 * fallbacks, until it expires; the envelope and the fallback meter say so.
 */
class LastGoodFallbackTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class, ResilienceMetricsAutoConfiguration.class))
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean(VirtualTimeSource.class)
        .withBean(LastGoodQuotes.class);

    @Test
    void failedCallIsServedTheLastGoodValueWithTheTimeItWasStored() {
        this.contextRunner.run((context) -> {
            LastGoodQuotes quotes = context.getBean(LastGoodQuotes.class);
            VirtualTimeSource time = context.getBean(VirtualTimeSource.class);
            Instant storedAt = time.now();
            ExecutionResult<Quote> good = quotes.quote("ETH");
            time.advance(Duration.ofMinutes(5));
            quotes.down(true);

            ExecutionResult<Quote> served = quotes.quote("ETH");

            assertThat(good.fallbackUsed()).isFalse();
            assertThat(served.status()).isEqualTo(ExecutionStatus.SUCCESS);
            assertThat(served.value()).isEqualTo(new Quote("ETH", 1));
            assertThat(served.fallbackUsed()).isTrue();
            assertThat(served.fallbackIndex()).isOne();
            assertThat(served.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "lastGood")
                .containsEntry(ExecutionResult.STALE_SINCE, storedAt);
            assertThat(fallbacks(context, "LastGoodQuotes#quote", "lastGood")).isOne();
        });
    }

    @Test
    void methodReturningItsValueReturnsTheLastGoodValueInsteadOfThrowing() {
        this.contextRunner.run((context) -> {
            LastGoodQuotes quotes = context.getBean(LastGoodQuotes.class);
            quotes.plainQuote("ETH");
            quotes.down(true);

            assertThat(quotes.plainQuote("ETH")).isEqualTo(new Quote("ETH", 1));
            assertThat(fallbacks(context, "LastGoodQuotes#plainQuote", "lastGood")).isOne();
        });
    }

    @Test
    void asynchronousCallIsServedTheLastGoodValue() {
        this.contextRunner.run((context) -> {
            LastGoodQuotes quotes = context.getBean(LastGoodQuotes.class);
            quotes.asyncQuote("ETH").join();
            quotes.down(true);

            assertThat(quotes.asyncQuote("ETH").join()).isEqualTo(new Quote("ETH", 1));
            assertThat(fallbacks(context, "LastGoodQuotes#asyncQuote", "lastGood")).isOne();
        });
    }

    @Test
    void anotherCallerIsNotServedTheValueOfACallersCall() {
        this.contextRunner.run((context) -> {
            LastGoodQuotes quotes = context.getBean(LastGoodQuotes.class);
            try {
                as("alice");
                quotes.quote("ETH");
                quotes.down(true);
                as("bob");
                ExecutionResult<Quote> bob = quotes.quote("ETH");
                as("alice");
                ExecutionResult<Quote> alice = quotes.quote("ETH");

                assertThat(bob.status()).isEqualTo(ExecutionStatus.ERROR);
                assertThat(alice.value()).isEqualTo(new Quote("ETH", 1));
                assertThat(alice.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "lastGood");
            }
            finally {
                SecurityContextHolder.clearContext();
            }
        });
    }

    @Test
    void callWithOtherArgumentsIsNotServedAnotherCallsValue() {
        this.contextRunner.run((context) -> {
            LastGoodQuotes quotes = context.getBean(LastGoodQuotes.class);
            quotes.quote("ETH");
            quotes.down(true);

            ExecutionResult<Quote> other = quotes.quote("BTC");

            assertThat(other.status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(other.error()).isInstanceOf(IllegalStateException.class);
            assertThat(other.fallbackUsed()).isFalse();
            assertThat(fallbacks(context, "LastGoodQuotes#quote", "lastGood")).isZero();
        });
    }

    @Test
    void expiredValueIsNotServed() {
        this.contextRunner.run((context) -> {
            LastGoodQuotes quotes = context.getBean(LastGoodQuotes.class);
            quotes.quote("ETH");
            context.getBean(VirtualTimeSource.class).advance(Duration.ofHours(1));
            quotes.down(true);

            ExecutionResult<Quote> expired = quotes.quote("ETH");

            assertThat(expired.status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(expired.metadata()).doesNotContainKey(ExecutionResult.FALLBACK_NAME);
        });
    }

    @Test
    void lastGoodValueIsServedBeforeTheNamedFallbacksWhichServeWhenNoneIsStored() {
        this.contextRunner.run((context) -> {
            LastGoodQuotes quotes = context.getBean(LastGoodQuotes.class);
            quotes.down(true);
            ExecutionResult<Quote> none = quotes.quoteOrDefault("ETH");
            quotes.down(false);
            quotes.quoteOrDefault("ETH");
            quotes.down(true);

            ExecutionResult<Quote> served = quotes.quoteOrDefault("ETH");

            assertThat(none.value()).isEqualTo(new Quote("ETH", -1));
            assertThat(none.fallbackIndex()).isEqualTo(2);
            assertThat(none.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "defaultQuote")
                .doesNotContainKey(ExecutionResult.STALE_SINCE);
            assertThat(served.value()).isEqualTo(new Quote("ETH", 1));
            assertThat(served.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "lastGood");
            assertThat(fallbacks(context, "LastGoodQuotes#quoteOrDefault", "defaultQuote")).isOne();
            assertThat(fallbacks(context, "LastGoodQuotes#quoteOrDefault", "lastGood")).isOne();
        });
    }

    @Test
    void fallbackValueIsNeverStored() {
        this.contextRunner.run((context) -> {
            LastGoodQuotes quotes = context.getBean(LastGoodQuotes.class);
            quotes.down(true);
            quotes.quoteOrDefault("ETH");

            ExecutionResult<Quote> again = quotes.quoteOrDefault("ETH");

            assertThat(again.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "defaultQuote");
            assertThat(fallbacks(context, "LastGoodQuotes#quoteOrDefault", "lastGood")).isZero();
        });
    }

    @Test
    void memoryStoreEvictsTheOldestValueBeyondItsBound() {
        this.contextRunner.withPropertyValues("resilience.fallback.last-good.max-entries=2").run((context) -> {
            LastGoodQuotes quotes = context.getBean(LastGoodQuotes.class);
            quotes.quote("A");
            quotes.quote("B");
            quotes.quote("C");
            quotes.down(true);

            assertThat(quotes.quote("A").status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(quotes.quote("B").value()).isEqualTo(new Quote("B", 2));
            assertThat(quotes.quote("C").value()).isEqualTo(new Quote("C", 3));
        });
    }

    @Test
    void fallbackWithNeitherNamesNorLastGoodFailsTheStartSayingWhy() {
        this.contextRunner.withBean(Useless.class).run((context) -> {
            assertThat(context).hasFailed();
            assertThat(FailureAnalyses.describe(context.getStartupFailure())).contains("Useless#call",
                    "names no fallback method and keeps no last good value", "lastGood");
        });
    }

    @Test
    void lastGoodThatIsNotADurationFailsTheStart() {
        this.contextRunner.withBean(Unparsable.class).run((context) -> {
            assertThat(context).hasFailed();
            assertThat(FailureAnalyses.describe(context.getStartupFailure())).contains("Unparsable#call",
                    "@Fallback(lastGood)", "soon");
        });
    }

    @Test
    void failingCallWithoutAStoredValueThrowsItsOwnError() {
        this.contextRunner.run((context) -> {
            LastGoodQuotes quotes = context.getBean(LastGoodQuotes.class);
            quotes.down(true);

            assertThatIllegalStateException().isThrownBy(() -> quotes.plainQuote("ETH")).withMessage("quotes are down");
        });
    }

    private static void as(String user) {
        SecurityContextHolder.getContext()
            .setAuthentication(
                    UsernamePasswordAuthenticationToken.authenticated(user, "n/a", AuthorityUtils.NO_AUTHORITIES));
    }

    static double fallbacks(AssertableApplicationContext context, String name, String fallback) {
        return context.getBean(MeterRegistry.class)
            .get("resilience.fallbacks")
            .tags("name", name, "fallback", fallback, "outcome", "success")
            .functionCounter()
            .count();
    }

    static class Useless {

        @Fallback
        public String call() {
            return "x";
        }

    }

    static class Unparsable {

        @Fallback(lastGood = "soon")
        public String call() {
            return "x";
        }

    }

}
