package dev.resilience.aop;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.RateLimited;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ratelimiter.RateLimitedException;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code @RateLimited} through the proxy, on a virtual clock that only the tests move.
 */
class RateLimitedAnnotationTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class, () -> this.clock)
        .withBean(Quotes.class);

    @Test
    void fivePerSecondAdmitsExactlyFiveAtAFrozenClockAndRefusesTheSixthWithTheWaitNeeded() {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            for (int i = 0; i < 5; i++) {
                assertThat(quotes.quote("EUR")).isEqualTo("quote EUR");
            }

            assertThatExceptionOfType(RateLimitedException.class).isThrownBy(() -> quotes.quote("EUR"))
                .satisfies((ex) -> {
                    assertThat(ex.retryAfter()).isEqualTo(Duration.ofMillis(200));
                    assertThat(ex.rateLimiterName()).isEqualTo("quotes");
                });
            assertThat(quotes.runs()).isEqualTo(5);
            RateLimiter limiter = context.getBean(ResilienceRegistry.class).findRateLimiter("quotes").orElseThrow();
            assertThat(limiter.permittedCalls()).isEqualTo(5);
            assertThat(limiter.rejectedCalls()).isOne();
        });
    }

    @Test
    void aPermitIsFreeAgainOnceTheRetryAfterHasPassed() {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            for (int i = 0; i < 5; i++) {
                quotes.quote("USD");
            }
            assertThatExceptionOfType(RateLimitedException.class).isThrownBy(() -> quotes.quote("USD"));

            this.clock.advance(Duration.ofMillis(200));

            assertThat(quotes.quote("USD")).isEqualTo("quote USD");
            assertThatExceptionOfType(RateLimitedException.class).isThrownBy(() -> quotes.quote("USD"))
                .satisfies((ex) -> assertThat(ex.retryAfter()).isEqualTo(Duration.ofMillis(200)));
        });
    }

    @Test
    void aCallWithinTheTimeoutWaitsExactlyTheRetryAfter() {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            assertThat(quotes.patientQuote("GBP")).isEqualTo("patient GBP");
            int sleepsBefore = this.clock.sleeps().size();

            assertThat(quotes.patientQuote("GBP")).isEqualTo("patient GBP");

            assertThat(this.clock.sleeps().subList(sleepsBefore, this.clock.sleeps().size()))
                .containsExactly(Duration.ofSeconds(1));
        });
    }

    @Test
    void refusedCallGoesToTheFallback() {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);

            assertThat(quotes.cachedQuote("CHF")).isEqualTo("fresh CHF");
            assertThat(quotes.cachedQuote("CHF")).isEqualTo("cached CHF, retry after PT1M");
        });
    }

    @Test
    void yamlInstanceOverridesTheAnnotatedLimit() {
        this.contextRunner.withPropertyValues("resilience.rate-limiter.instances.quotes.limit=2").run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            quotes.quote("JPY");
            quotes.quote("JPY");

            assertThatExceptionOfType(RateLimitedException.class).isThrownBy(() -> quotes.quote("JPY"))
                .satisfies((ex) -> assertThat(ex.retryAfter()).isEqualTo(Duration.ofMillis(500)));
        });
    }

    static class Quotes {

        private final AtomicInteger runs = new AtomicInteger();

        @RateLimited(name = "quotes", limit = 5, period = "1s")
        public String quote(String currency) {
            this.runs.incrementAndGet();
            return "quote " + currency;
        }

        @RateLimited(name = "patient", limit = 1, period = "1s", timeout = "2s")
        public String patientQuote(String currency) {
            return "patient " + currency;
        }

        @RateLimited(name = "cached", limit = 1, period = "1m")
        @Fallback("cached")
        public String cachedQuote(String currency) {
            return "fresh " + currency;
        }

        String cached(String currency, RateLimitedException ex) {
            return "cached " + currency + ", retry after " + ex.retryAfter();
        }

        public int runs() {
            return this.runs.get();
        }

    }

}
