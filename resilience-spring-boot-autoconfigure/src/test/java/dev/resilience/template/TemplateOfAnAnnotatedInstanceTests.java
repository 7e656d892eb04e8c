package dev.resilience.template;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ResilienceTemplate}: "the same policies, breakers, budgets, statistics and dead
 * letters as the annotated methods of those names". An instance that annotations
 * configure runs with their settings through the template too, those that
 * {@code /actuator/retries} reports for the name, not with the YAML's alone.
 */
class TemplateOfAnAnnotatedInstanceTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withBean(Quotes.class)
        .withPropertyValues("resilience.retry.defaults.jitter=none", "resilience.retry.defaults.budget.enabled=false");

    @Test
    void templateRunsTheInstanceWithTheSettingsOfTheAnnotatedMethodsOfItsName() {
        this.contextRunner.run((context) -> {
            AtomicInteger attempts = new AtomicInteger();

            ExecutionResult<String> result = context.getBean(ResilienceTemplate.class).execute("quotes", () -> {
                attempts.incrementAndGet();
                throw new IOException("quote service down");
            });

            assertThat(result.attempts()).as("attempts of the 'quotes' instance").isEqualTo(5);
        });
    }

    static class Quotes {

        @Retryable(value = "quotes", maxAttempts = 5, delay = "1ms")
        public String quote(String symbol) {
            return "quote of " + symbol;
        }

    }

}
