package dev.resilience.aop;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Hedged;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.integration.Slf4jThreadLocalAccessor;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With Micrometer's context-propagation on the class path and an MDC accessor registered
 * as an application registers it ({@link Slf4jThreadLocalAccessor}), what a caller puts
 * in the MDC, or a {@code Mono}'s subscriber in its Reactor context, is present in every
 * attempt and fallback of the call, on whatever thread they run; the call's observation
 * is the current one there, so the spans they make are children of the call's span; and
 * nothing stays on the executor's thread after the call. On the virtual clock, whose
 * timers fire on the thread that moves it, with a single-thread executor for the steps
 * after a backoff.
 */
class ContextSnapshotsTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ResilienceAutoConfiguration.class))
        .withPropertyValues("resilience.async.executor=tracingExecutor",
                "resilience.retry.defaults.budget.enabled=false")
        .withUserConfiguration(ContextConfiguration.class);

    private final ExecutorService callers = Executors.newSingleThreadExecutor((task) -> new Thread(task, "caller"));

    @BeforeEach
    void registerTheMdcAccessor() {
        ContextRegistry.getInstance().registerThreadLocalAccessor(new Slf4jThreadLocalAccessor("requestId"));
    }

    @AfterEach
    void removeTheMdcAccessor() {
        ContextRegistry.getInstance().removeThreadLocalAccessor(Slf4jThreadLocalAccessor.KEY);
        this.callers.shutdownNow();
        MDC.clear();
    }

    @Test
    void futureRetriedAfterABackoffAndItsFallbackSeeTheCallersMdcAndTheCallsObservationOnTheExecutor() {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            ObservationRegistry registry = context.getBean(ObservationRegistry.class);
            Observation outer = Observation.start("outer", registry);
            CompletableFuture<String> future;
            try (Observation.Scope scope = outer.openScope()) {
                MDC.put("requestId", "r-1");
                future = quotes.quoteAsync();
                MDC.remove("requestId");
            }
            context.getBean(VirtualTimeSource.class).advance(Duration.ofMillis(100));

            assertThat(future).succeedsWithin(Duration.ofSeconds(10)).isEqualTo("cached");
            outer.stop();
            String caller = Thread.currentThread().getName();
            assertThat(quotes.seen()).containsExactly(new Seen("attempt", "r-1", "mdc-async", caller),
                    new Seen("attempt", "r-1", "mdc-async", "tracing-executor"),
                    new Seen("fallback", "r-1", "mdc-async", "tracing-executor"));
            assertSpansAreChildrenOfTheCall(context, "mdc-async", 3, "outer");
            assertThat(currentOnTheExecutor(context)).isEqualTo("mdc={} observation=null span=null");
        });
    }

    @Test
    void monoRetriedAfterABackoffAndItsFallbackSeeTheSubscribersReactorContextOnEveryThread() {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            Observation server = Observation.start("server", context.getBean(ObservationRegistry.class));
            Context subscriberContext = Context.of(Slf4jThreadLocalAccessor.KEY, Map.of("requestId", "r-2"),
                    ObservationThreadLocalAccessor.KEY, server);

            StepVerifier.create(quotes.quoteMono().contextWrite(subscriberContext))
                .then(() -> advanceOnceTheBackoffIsScheduled(context, quotes))
                .expectNext("cached")
                .expectComplete()
                .verify(Duration.ofSeconds(10));
            server.stop();

            String subscriber = Thread.currentThread().getName();
            assertThat(quotes.seen()).containsExactly(new Seen("attempt", "r-2", "mdc-mono", subscriber),
                    new Seen("attempt", "r-2", "mdc-mono", "tracing-executor"),
                    new Seen("fallback", "r-2", "mdc-mono", "tracing-executor"));
            assertSpansAreChildrenOfTheCall(context, "mdc-mono", 3, "server");
            assertThat(MDC.getCopyOfContextMap()).as("the subscriber's thread after the call").isNullOrEmpty();
            assertThat(currentOnTheExecutor(context)).isEqualTo("mdc={} observation=null span=null");
        });
    }

    @Test
    void callersContinuationOfTheReturnedFutureRunsWithoutTheCallersMdcAndTheCallsEndedObservation() {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            ObservationRegistry registry = context.getBean(ObservationRegistry.class);
            MDC.put("requestId", "r-5");
            CompletableFuture<String> future = quotes.quoteAsync();
            MDC.remove("requestId");
            CompletableFuture<String> continued = future.thenApply((value) -> "mdc=" + MDC.get("requestId")
                    + " observation=" + registry.getCurrentObservation() + " on " + Thread.currentThread().getName());
            context.getBean(VirtualTimeSource.class).advance(Duration.ofMillis(100));

            assertThat(continued).succeedsWithin(Duration.ofSeconds(10))
                .isEqualTo("mdc=null observation=null on tracing-executor");
            assertThat(quotes.seen()).extracting(Seen::requestId).containsExactly("r-5", "r-5", "r-5");
        });
    }

    @Test
    void monoAttemptsAndFallbackFindTheCallsObservationInTheirReactorContextAsAnHttpClientLooksForItsParent() {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            Observation server = Observation.start("server", context.getBean(ObservationRegistry.class));

            StepVerifier
                .create(quotes.quoteFromContext().contextWrite(Context.of(ObservationThreadLocalAccessor.KEY, server)))
                .then(() -> advanceOnceTheBackoffIsScheduled(context, quotes))
                .expectNext("cached")
                .expectComplete()
                .verify(Duration.ofSeconds(10));
            server.stop();

            assertThat(quotes.seen()).extracting(Seen::what)
                .containsExactly("attempt in context", "attempt in context", "fallback in context");
            assertThat(quotes.seen()).extracting(Seen::observation).containsOnly("mdc-mono-context");
        });
    }

    @Test
    void fluxAttemptsAndFallbackFindTheCallsObservationInTheirReactorContextAsMonoOnesDo() {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);

            StepVerifier.create(quotes.feedFromContext())
                .then(() -> advanceOnceTheBackoffIsScheduled(context, quotes))
                .expectNext("cached")
                .expectComplete()
                .verify(Duration.ofSeconds(10));

            assertThat(quotes.seen()).extracting(Seen::what)
                .containsExactly("attempt in context", "attempt in context", "fallback in context");
            assertThat(quotes.seen()).extracting(Seen::observation).containsOnly("mdc-flux-context");
        });
    }

    @Test
    void hedgeOfASynchronousMethodSeesTheCallersMdcAndTheCallsObservation() {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            Future<String> call = this.callers.submit(() -> {
                MDC.put("requestId", "r-3");
                try {
                    return quotes.hedgedQuote();
                }
                finally {
                    MDC.remove("requestId");
                }
            });
            assertThat(quotes.firstEntered().await(10, TimeUnit.SECONDS)).isTrue();
            context.getBean(VirtualTimeSource.class).advance(Duration.ofMillis(50));

            assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("hedged");
            assertThat(quotes.seen()).containsExactly(new Seen("hedge", "r-3", "mdc-hedged", "tracing-executor"));
            SimpleSpan callSpan = spans(context, "mdc-hedged").get(0);
            assertThat(spans(context, "inner")).singleElement()
                .satisfies((inner) -> assertThat(inner.getParentId()).isEqualTo(callSpan.getSpanId()));
            assertThat(currentOnTheExecutor(context)).isEqualTo("mdc={} observation=null span=null");
        });
    }

    @Test
    void valueAnEarlierTaskLeftOnTheExecutorsThreadIsNotSeenByACallWhoseCallerHadNone() {
        ContextRegistry.getInstance().registerThreadLocalAccessor(new Slf4jThreadLocalAccessor());
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            ExecutorService executor = context.getBean("tracingExecutor", ExecutorService.class);
            executor.submit(() -> MDC.put("requestId", "left-behind")).get(10, TimeUnit.SECONDS);
            MDC.clear();
            CompletableFuture<String> future = quotes.quoteAsync();
            context.getBean(VirtualTimeSource.class).advance(Duration.ofMillis(100));

            assertThat(future).succeedsWithin(Duration.ofSeconds(10)).isEqualTo("cached");
            assertThat(quotes.seen()).extracting(Seen::thread)
                .containsExactly(Thread.currentThread().getName(), "tracing-executor", "tracing-executor");
            assertThat(quotes.seen()).extracting(Seen::requestId).containsOnlyNulls();
            assertThat(executor.submit(() -> MDC.get("requestId")).get(10, TimeUnit.SECONDS))
                .as("the thread's own value, put back after each step")
                .isEqualTo("left-behind");
        });
    }

    @Test
    void mdcValueWithoutARegisteredAccessorStaysOnTheCallersThread() {
        ContextRegistry.getInstance().removeThreadLocalAccessor(Slf4jThreadLocalAccessor.KEY);
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            MDC.put("requestId", "r-4");
            CompletableFuture<String> future = quotes.quoteAsync();
            MDC.remove("requestId");
            context.getBean(VirtualTimeSource.class).advance(Duration.ofMillis(100));

            assertThat(future).succeedsWithin(Duration.ofSeconds(10)).isEqualTo("cached");
            assertThat(quotes.seen()).extracting(Seen::requestId).containsExactly("r-4", null, null);
            assertThat(quotes.seen()).extracting(Seen::observation).containsOnly("mdc-async");
        });
    }

    private static void advanceOnceTheBackoffIsScheduled(AssertableApplicationContext context, Quotes quotes) {
        VirtualTimeSource clock = context.getBean(VirtualTimeSource.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> quotes.seen().size() == 1 && clock.pendingTasks() == 1);
        clock.advance(Duration.ofMillis(100));
    }

    private static void assertSpansAreChildrenOfTheCall(AssertableApplicationContext context, String call, int inner,
            String parent) {
        SimpleSpan callSpan = spans(context, call).get(0);
        assertThat(callSpan.getParentId()).isEqualTo(spans(context, parent).get(0).getSpanId());
        assertThat(spans(context, "inner")).hasSize(inner)
            .allSatisfy((span) -> assertThat(span.getParentId()).isEqualTo(callSpan.getSpanId()))
            .allSatisfy((span) -> assertThat(span.getTraceId()).isEqualTo(callSpan.getTraceId()));
    }

    private static List<SimpleSpan> spans(AssertableApplicationContext context, String name) {
        List<SimpleSpan> named = context.getBean(SimpleTracer.class)
            .getSpans()
            .stream()
            .filter((span) -> name.equals(span.getName()))
            .toList();
        assertThat(named).as("spans named " + name).isNotEmpty();
        return named;
    }

    private static String currentOnTheExecutor(AssertableApplicationContext context) throws Exception {
        ObservationRegistry registry = context.getBean(ObservationRegistry.class);
        Tracer tracer = context.getBean(Tracer.class);
        return context.getBean("tracingExecutor", ExecutorService.class).submit(() -> {
            Map<String, String> mdc = MDC.getCopyOfContextMap();
            return "mdc=" + ((mdc != null) ? mdc : Map.of()) + " observation=" + registry.getCurrentObservation()
                    + " span=" + tracer.currentSpan();
        }).get(10, TimeUnit.SECONDS);
    }

    /**
     * What an attempt, hedge or fallback saw: the MDC's request id, the contextual name
     * of the current observation, and its thread.
     */
    record Seen(String what, @Nullable String requestId, @Nullable String observation, String thread) {
    }

    @Configuration(proxyBeanMethods = false)
    @Import(TracingTestConfiguration.class)
    static class ContextConfiguration {

        @Bean
        Quotes quotes(SimpleTracer tracer, ObservationRegistry registry) {
            return new Quotes(tracer, registry);
        }

    }

    static class Quotes {

        private final List<Seen> seen = new CopyOnWriteArrayList<>();

        private final AtomicInteger hedgeTries = new AtomicInteger();

        private final CountDownLatch firstEntered = new CountDownLatch(1);

        private final Tracer tracer;

        private final ObservationRegistry registry;

        Quotes(Tracer tracer, ObservationRegistry registry) {
            this.tracer = tracer;
            this.registry = registry;
        }

        @Retryable(value = "mdc-async", maxAttempts = 2, delay = "100ms", jitter = "none")
        @Fallback("cachedAsync")
        public CompletableFuture<String> quoteAsync() {
            return seenIn("attempt", () -> CompletableFuture.failedFuture(new IllegalStateException("quotes down")));
        }

        CompletableFuture<String> cachedAsync() {
            return seenIn("fallback", () -> CompletableFuture.completedFuture("cached"));
        }

        @Retryable(value = "mdc-mono", maxAttempts = 2, delay = "100ms", jitter = "none")
        @Fallback("cachedMono")
        public Mono<String> quoteMono() {
            return Mono.fromCallable(() -> seenIn("attempt", () -> {
                throw new IllegalStateException("quotes down");
            }));
        }

        Mono<String> cachedMono() {
            return Mono.fromCallable(() -> seenIn("fallback", () -> "cached"));
        }

        @Retryable(value = "mdc-mono-context", maxAttempts = 2, delay = "100ms", jitter = "none")
        @Fallback("cachedFromContext")
        public Mono<String> quoteFromContext() {
            return Mono.deferContextual((context) -> {
                seenInContext("attempt in context", context);
                return Mono.error(new IllegalStateException("quotes down"));
            });
        }

        Mono<String> cachedFromContext() {
            return Mono.deferContextual((context) -> {
                seenInContext("fallback in context", context);
                return Mono.just("cached");
            });
        }

        @Retryable(value = "mdc-flux-context", maxAttempts = 2, delay = "100ms", jitter = "none")
        @Fallback("cachedFeedFromContext")
        public Flux<String> feedFromContext() {
            return Flux.deferContextual((context) -> {
                seenInContext("attempt in context", context);
                return Flux.error(new IllegalStateException("feed down"));
            });
        }

        Flux<String> cachedFeedFromContext() {
            return Flux.deferContextual((context) -> {
                seenInContext("fallback in context", context);
                return Flux.just("cached");
            });
        }

        @Hedged(value = "mdc-hedged", delay = "50ms", maxHedges = 1)
        public String hedgedQuote() throws InterruptedException {
            if (this.hedgeTries.incrementAndGet() > 1) {
                return seenIn("hedge", () -> "hedged");
            }
            this.firstEntered.countDown();
            new CountDownLatch(1).await();
            return "first";
        }

        List<Seen> seen() {
            return this.seen;
        }

        CountDownLatch firstEntered() {
            return this.firstEntered;
        }

        private void seenInContext(String what, ContextView context) {
            Observation parent = context.getOrDefault(ObservationThreadLocalAccessor.KEY, null);
            this.seen.add(new Seen(what, null, (parent != null) ? parent.getContext().getContextualName() : null,
                    Thread.currentThread().getName()));
        }

        private <T> T seenIn(String what, Supplier<T> work) {
            Observation current = this.registry.getCurrentObservation();
            this.seen.add(new Seen(what, MDC.get("requestId"),
                    (current != null) ? current.getContext().getContextualName() : null,
                    Thread.currentThread().getName()));
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
