package dev.resilience.aop;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chaos latency on an asynchronous method and tracing together: README's Tracing section
 * and DESIGN section 14 promise the call's observation in scope while the method runs,
 * for a {@code CompletionStage} method on the thread that calls the method for that
 * attempt.
 */
class ChaosTracingTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ResilienceAutoConfiguration.class))
        .withPropertyValues("resilience.async.executor=tracingExecutor", "resilience.chaos.enabled=true",
                "resilience.chaos.instances[delayed-quote].latency=200ms")
        .withUserConfiguration(TracingConfiguration.class);

    @Test
    void asyncMethodDelayedByChaosRunsWithTheCallsObservationInScope() {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);

            CompletableFuture<String> future = quotes.delayedQuote();
            context.getBean(VirtualTimeSource.class).advance(Duration.ofMillis(200));

            assertThat(future).succeedsWithin(Duration.ofSeconds(5)).isEqualTo("quote");
            assertThat(quotes.observationSeen()).as("the observation current while the method ran")
                .isEqualTo("resilience.calls");
            SimpleSpan call = span(context, "delayed-quote");
            assertThat(span(context, "inner").getParentId()).as("the method's span is a child of the call's")
                .isEqualTo(call.getSpanId());
        });
    }

    private static SimpleSpan span(AssertableApplicationContext context, String name) {
        List<SimpleSpan> named = context.getBean(SimpleTracer.class)
            .getSpans()
            .stream()
            .filter((span) -> name.equals(span.getName()))
            .toList();
        assertThat(named).as("spans named " + name).hasSize(1);
        return named.get(0);
    }

    @Configuration(proxyBeanMethods = false)
    @Import(TracingTestConfiguration.class)
    static class TracingConfiguration {

        @Bean
        Quotes quotes(SimpleTracer tracer, ObservationRegistry registry) {
            return new Quotes(tracer, registry);
        }

    }

    static class Quotes {

        private final Tracer tracer;

        private final ObservationRegistry registry;

        volatile String observationSeen = "not run";

        Quotes(Tracer tracer, ObservationRegistry registry) {
            this.tracer = tracer;
            this.registry = registry;
        }

        public String observationSeen() {
            return this.observationSeen;
        }

        @Retryable(value = "delayed-quote", maxAttempts = 1)
        public CompletableFuture<String> delayedQuote() {
            this.observationSeen = String.valueOf((this.registry.getCurrentObservation() != null)
                    ? this.registry.getCurrentObservation().getContext().getName() : null);
            Span span = this.tracer.nextSpan().name("inner").start();
            try (Tracer.SpanInScope scope = this.tracer.withSpan(span)) {
                return CompletableFuture.completedFuture("quote");
            }
            finally {
                span.end();
            }
        }

    }

}
