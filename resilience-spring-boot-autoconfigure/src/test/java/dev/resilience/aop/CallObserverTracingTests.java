package dev.resilience.aop;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import io.micrometer.observation.Observation;
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
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The call's observation is in scope while each attempt runs, so that the spans the
 * method makes are children of the {@code resilience.calls} span; retries are events of
 * that span, a failed call marks it with its error, and no scope is left open on the
 * caller's thread or the executor's. Through the proxy, with Micrometer Tracing's test
 * tracer behind the observation registry.
 */
class CallObserverTracingTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ResilienceAutoConfiguration.class))
        .withPropertyValues("resilience.async.executor=tracingExecutor")
        .withUserConfiguration(TracingConfiguration.class);

    @Test
    void spanMadeByTheMethodIsAChildOfTheCallsSpan() {
        this.contextRunner.run((context) -> {
            context.getBean(Quotes.class).quote();

            SimpleSpan call = span(context, "traced-quote");
            SimpleSpan inner = span(context, "inner");
            assertThat(inner.getTraceId()).isEqualTo(call.getTraceId());
            assertThat(inner.getParentId()).isEqualTo(call.getSpanId());
            assertThat(call.getError()).isNull();
        });
    }

    @Test
    void retriesAreEventsOfTheCallsSpanAndEachAttemptsSpanIsItsChild() {
        this.contextRunner.run((context) -> {
            context.getBean(Quotes.class).flakyQuote();

            SimpleSpan call = span(context, "flaky-traced-quote");
            assertThat(call.getEvents()).extracting(Map.Entry::getValue)
                .containsExactly("retry after attempt 1", "retry after attempt 2");
            assertThat(spans(context, "inner")).hasSize(3)
                .allSatisfy((inner) -> assertThat(inner.getParentId()).isEqualTo(call.getSpanId()));
        });
    }

    @Test
    void callThatEndsInErrorHasTheErrorOnItsSpan() {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);

            assertThatIllegalStateException().isThrownBy(quotes::failingQuote);

            SimpleSpan call = span(context, "failing-traced-quote");
            assertThat(call.getError()).isInstanceOf(IllegalStateException.class).hasMessage("quote service down");
            assertThat(call.getEvents()).extracting(Map.Entry::getValue).containsExactly("retry after attempt 1");
            assertThat(spans(context, "inner")).hasSize(2)
                .allSatisfy((inner) -> assertThat(inner.getParentId()).isEqualTo(call.getSpanId()));
        });
    }

    @Test
    void callersCurrentObservationAndSpanAreTheSameAfterTheCall() {
        this.contextRunner.run((context) -> {
            ObservationRegistry registry = context.getBean(ObservationRegistry.class);
            Tracer tracer = context.getBean(Tracer.class);
            Quotes quotes = context.getBean(Quotes.class);
            Observation outer = Observation.start("outer", registry);
            try (Observation.Scope scope = outer.openScope()) {
                Span outerSpan = tracer.currentSpan();

                quotes.quote();
                assertThatIllegalStateException().isThrownBy(quotes::failingQuote);

                assertThat(registry.getCurrentObservation()).isSameAs(outer);
                assertThat(tracer.currentSpan()).isEqualTo(outerSpan);
                assertThat(span(context, "traced-quote").getParentId()).isEqualTo(outerSpan.context().spanId());
            }
            finally {
                outer.stop();
            }
            assertThat(registry.getCurrentObservation()).isNull();
            assertThat(tracer.currentSpan()).isNull();
        });
    }

    @Test
    void asyncAttemptsRunWithTheCallsObservationInScopeAndLeaveNoneOnAnyThread() {
        this.contextRunner.run((context) -> {
            ObservationRegistry registry = context.getBean(ObservationRegistry.class);
            Tracer tracer = context.getBean(Tracer.class);
            VirtualTimeSource clock = context.getBean(VirtualTimeSource.class);
            Quotes quotes = context.getBean(Quotes.class);

            CompletableFuture<String> future = quotes.flakyQuoteAsync();
            assertThat(registry.getCurrentObservation()).isNull();
            assertThat(tracer.currentSpan()).isNull();
            clock.advance(Duration.ofSeconds(1));

            assertThat(future).succeedsWithin(Duration.ofSeconds(5)).isEqualTo("quote");
            SimpleSpan call = span(context, "async-traced-quote");
            assertThat(call.getEvents()).extracting(Map.Entry::getValue).containsExactly("retry after attempt 1");
            assertThat(spans(context, "inner")).hasSize(2)
                .allSatisfy((inner) -> assertThat(inner.getParentId()).isEqualTo(call.getSpanId()));
            assertThat(quotes.attemptThreads()).containsExactly(Thread.currentThread().getName(), "tracing-executor");
            assertThat(currentOnTheExecutor(context)).isEqualTo("observation=null span=null");
        });
    }

    @Test
    void asyncCallThatEndsInErrorHasTheErrorOnItsSpan() {
        this.contextRunner.run((context) -> {
            CompletableFuture<String> future = context.getBean(Quotes.class).failingQuoteAsync();

            assertThat(future).failsWithin(Duration.ofSeconds(5));
            SimpleSpan call = span(context, "failing-async-traced-quote");
            assertThat(call.getError()).isInstanceOf(IllegalStateException.class).hasMessage("quote service down");
            assertThat(span(context, "inner").getParentId()).isEqualTo(call.getSpanId());
            assertThat(context.getBean(ObservationRegistry.class).getCurrentObservation()).isNull();
        });
    }

    @Test
    void asyncCallCancelledWhileWaitingToRetryEndsItsSpanWithTheCancellationAndLeavesNoScope() {
        this.contextRunner.run((context) -> {
            ObservationRegistry registry = context.getBean(ObservationRegistry.class);
            CompletableFuture<String> future = context.getBean(Quotes.class).flakyQuoteAsync();

            future.cancel(true);
            context.getBean(VirtualTimeSource.class).advance(Duration.ofSeconds(1));

            SimpleSpan call = span(context, "async-traced-quote");
            assertThat(call.getError()).isInstanceOf(CancellationException.class);
            assertThat(spans(context, "inner")).hasSize(1);
            assertThat(registry.getCurrentObservation()).isNull();
            assertThat(currentOnTheExecutor(context)).isEqualTo("observation=null span=null");
        });
    }

    private static String currentOnTheExecutor(AssertableApplicationContext context) throws Exception {
        ObservationRegistry registry = context.getBean(ObservationRegistry.class);
        Tracer tracer = context.getBean(Tracer.class);
        return context.getBean("tracingExecutor", ExecutorService.class)
            .submit(() -> "observation=" + registry.getCurrentObservation() + " span=" + tracer.currentSpan())
            .get();
    }

    private static SimpleSpan span(AssertableApplicationContext context, String name) {
        List<SimpleSpan> named = spans(context, name);
        assertThat(named).as("spans named " + name).hasSize(1);
        return named.get(0);
    }

    private static List<SimpleSpan> spans(AssertableApplicationContext context, String name) {
        return context.getBean(SimpleTracer.class)
            .getSpans()
            .stream()
            .filter((span) -> name.equals(span.getName()))
            .toList();
    }

    @Configuration(proxyBeanMethods = false)
    @Import(TracingTestConfiguration.class)
    static class TracingConfiguration {

        @Bean
        Quotes quotes(SimpleTracer tracer) {
            return new Quotes(tracer);
        }

    }

    static class Quotes {

        private final AtomicInteger flakyCalls = new AtomicInteger();

        private final List<String> attemptThreads = new CopyOnWriteArrayList<>();

        private final Tracer tracer;

        Quotes(Tracer tracer) {
            this.tracer = tracer;
        }

        @Retryable("traced-quote")
        public String quote() {
            return inner(() -> "quote");
        }

        @Retryable(value = "flaky-traced-quote", maxAttempts = 3, delay = "100ms", jitter = "none")
        public String flakyQuote() {
            return inner(() -> {
                if (this.flakyCalls.incrementAndGet() % 3 != 0) {
                    throw new IllegalStateException("quote service down");
                }
                return "quote";
            });
        }

        @Retryable(value = "failing-traced-quote", maxAttempts = 2, delay = "100ms", jitter = "none")
        public String failingQuote() {
            return inner(() -> {
                throw new IllegalStateException("quote service down");
            });
        }

        @Retryable(value = "async-traced-quote", maxAttempts = 2, delay = "100ms", jitter = "none")
        public CompletableFuture<String> flakyQuoteAsync() {
            this.attemptThreads.add(Thread.currentThread().getName());
            return inner(() -> (this.flakyCalls.incrementAndGet() % 2 != 0)
                    ? CompletableFuture.failedFuture(new IllegalStateException("quote service down"))
                    : CompletableFuture.completedFuture("quote"));
        }

        @Retryable(value = "failing-async-traced-quote", maxAttempts = 1)
        public CompletableFuture<String> failingQuoteAsync() {
            return inner(() -> CompletableFuture.failedFuture(new IllegalStateException("quote service down")));
        }

        List<String> attemptThreads() {
            return this.attemptThreads;
        }

        private <T> T inner(Supplier<T> work) {
            Span span = this.tracer.nextSpan().name("inner").start();
            try (Tracer.SpanInScope scope = this.tracer.withSpan(span)) {
                return work.get();
            }
            finally {
                span.end();
            }
        }

    }

}
