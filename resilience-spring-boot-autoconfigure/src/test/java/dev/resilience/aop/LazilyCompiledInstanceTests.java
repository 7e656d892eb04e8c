package dev.resilience.aop;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A method first seen through a call (a lazy bean declared by its interface, so the
 * startup scan cannot see the annotated class) is compiled at its first call, after every
 * configured instance was resolved without an annotation: it runs with that instance.
 */
class LazilyCompiledInstanceTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withUserConfiguration(LazyQuotes.class)
        .withPropertyValues("resilience.retry.defaults.jitter=none", "resilience.retry.defaults.budget.enabled=false",
                "resilience.retry.instances.quotes.delay=1ms");

    @Test
    void firstCallOfALazilyCompiledMethodNamingAConfiguredInstanceRunsIt() {
        this.contextRunner.run((context) -> {
            assertThat(context).hasNotFailed();
            QuoteSource quotes = context.getBean(QuoteSource.class);
            AnnotatedQuotes.calls.set(0);

            assertThat(quotes.quote("ETH")).isEqualTo("quote of ETH");
            assertThat(AnnotatedQuotes.calls).as("calls of the method, whose abortOn does not list IOException")
                .hasValue(2);
        });
    }

    interface QuoteSource {

        String quote(String symbol) throws IOException;

    }

    static class AnnotatedQuotes implements QuoteSource {

        static final AtomicInteger calls = new AtomicInteger();

        @Override
        @Retryable(value = "quotes", abortOn = IllegalArgumentException.class)
        public String quote(String symbol) throws IOException {
            if (calls.incrementAndGet() == 1) {
                throw new IOException("quote service down");
            }
            return "quote of " + symbol;
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class LazyQuotes {

        @Bean
        @Lazy
        QuoteSource quotes() {
            return new AnnotatedQuotes();
        }

    }

}
