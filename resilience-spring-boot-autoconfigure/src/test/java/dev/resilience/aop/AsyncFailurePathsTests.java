package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.ExecutionListener;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import io.micrometer.observation.Observation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure paths of annotated methods returning a {@code CompletableFuture}, through
 * the proxy, on the virtual clock with an executor that runs each step on the thread that
 * moves the clock.
 */
@SpringBootTest(classes = AsyncFailurePathsTests.TestApplication.class,
        properties = { "resilience.retry.defaults.jitter=none", "resilience.async.executor=callerRunsExecutor",
                "resilience.retry.instances.immediate.budget.enabled=false",
                "resilience.circuit-breaker.instances.async-gateway.minimum-calls=2",
                "resilience.circuit-breaker.instances.async-gateway.sliding-window-size=2",
                "resilience.circuit-breaker.instances.async-gateway.half-open-calls=1",
                "resilience.circuit-breaker.instances.async-gateway.wait-in-open=1s" })
class AsyncFailurePathsTests {

    @Autowired
    private AsyncQuotes quotes;

    @Autowired
    private VirtualTimeSource clock;

    @Autowired
    private ResultRecorder results;

    @Autowired
    private RecordingObservationHandler observations;

    @Autowired
    private ResilienceRegistry registry;

    @BeforeEach
    void reset() {
        this.quotes.reset();
        this.results.clear();
        this.observations.clear();
    }

    @Test
    void cancellingTheFutureOfAnAsyncRetryableCallStartsNoFurtherAttemptOrFallback() {
        this.quotes.script(() -> CompletableFuture.failedFuture(new IOException("oracle down")));

        CompletableFuture<String> future = this.quotes.quote("ETH");
        assertThat(this.quotes.attempts()).isEqualTo(1);
        assertThat(future.cancel(true)).isTrue();
        this.clock.advance(Duration.ofSeconds(10));

        assertThat(this.quotes.attempts()).isEqualTo(1);
        assertThat(this.quotes.fallbacks()).isZero();
        assertThat(this.clock.pendingTasks()).isZero();
        ExecutionResult<?> result = this.results.only("async-quote");
        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.error()).isInstanceOf(CancellationException.class);
        assertThat(result.attempts()).isEqualTo(1);
    }

    @Test
    void cancellingTheFutureCancelsTheStageOfTheRunningAttempt() {
        CompletableFuture<String> running = new CompletableFuture<>();
        this.quotes.script(() -> running);

        CompletableFuture<String> future = this.quotes.quote("ETH");
        future.cancel(true);

        assertThat(running).isCancelled();
        assertThat(this.quotes.attempts()).isEqualTo(1);
        assertThat(this.quotes.fallbacks()).isZero();
        assertThat(this.results.only("async-quote").error()).isInstanceOf(CancellationException.class);
    }

    @Test
    void cancellingAnIdempotentAsyncCallReleasesItsKey() {
        CompletableFuture<String> running = new CompletableFuture<>();
        this.quotes.script(() -> running);

        this.quotes.pay("pay-1").cancel(true);
        CompletableFuture<String> again = this.quotes.pay("pay-1");

        assertThat(this.quotes.attempts()).isEqualTo(2);
        assertThat(again).isCompletedWithValue("ok");
    }

    @Test
    void cancellingOrCompletingExceptionallyStopsTheObservationExactlyOnce() {
        CompletableFuture<String> running = new CompletableFuture<>();
        this.quotes.script(() -> running);

        this.quotes.quote("ETH").cancel(true);
        running.complete("late");

        assertThat(resilienceCalls(this.observations.started())).hasSize(1);
        assertThat(resilienceCalls(this.observations.stopped())).hasSize(1)
            .allSatisfy((context) -> assertThat(context.getError()).isInstanceOf(CancellationException.class));
    }

    @Test
    void asyncAttemptReturningNullEndsTheCallAndTheProbeDecides() {
        CircuitBreaker breaker = this.registry.findCircuitBreaker("async-gateway").orElseThrow();
        breaker.transitionTo(CircuitBreakerState.CLOSED);
        this.quotes.guardedNull();
        this.quotes.guardedNull();
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        this.clock.advance(Duration.ofSeconds(1));

        CompletableFuture<String> probe = this.quotes.guardedNull();

        assertThat(probe).isCompletedExceptionally();
        assertThat(probe.handle((value, failure) -> failure).join()).isInstanceOf(NullPointerException.class);
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        assertThat(breaker.metrics().failedCallsTotal()).isEqualTo(3);
    }

    @Test
    void asyncAttemptReturningNullReleasesItsIdempotencyKey() {
        this.quotes.script(() -> null);

        CompletableFuture<String> first = this.quotes.pay("pay-null");
        CompletableFuture<String> second = this.quotes.pay("pay-null");

        assertThat(first).isCompletedExceptionally();
        assertThat(second).isCompletedWithValue("ok");
        assertThat(this.quotes.attempts()).isEqualTo(2);
    }

    @Test
    void errorInAnAsyncAttemptIsNeitherRetriedNorSentToFallbacks() {
        this.quotes.script(() -> CompletableFuture.failedFuture(new AssertionError("broken invariant")));

        CompletableFuture<String> future = this.quotes.quote("ETH");
        this.clock.advance(Duration.ofSeconds(10));

        assertThat(future.handle((value, failure) -> failure).join()).isInstanceOf(AssertionError.class)
            .hasMessage("broken invariant");
        assertThat(this.quotes.attempts()).isEqualTo(1);
        assertThat(this.quotes.fallbacks()).isZero();
        assertThat(resilienceCalls(this.observations.stopped())).hasSize(1)
            .allSatisfy((context) -> assertThat(context.getError()).isInstanceOf(AssertionError.class));
    }

    @Test
    void immediateAsyncRetriesDoNotGrowTheStack() {
        CompletableFuture<String> future = this.quotes.immediate();

        assertThat(future.handle((value, failure) -> failure).join()).isInstanceOf(IOException.class);
        assertThat(this.quotes.attempts()).isEqualTo(5000);
        assertThat(this.results.only("immediate").attempts()).isEqualTo(5000);
    }

    private static List<Observation.Context> resilienceCalls(List<Observation.Context> contexts) {
        return contexts.stream().filter((context) -> CallObserver.OBSERVATION_NAME.equals(context.getName())).toList();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

        @Bean
        Executor callerRunsExecutor() {
            return Runnable::run;
        }

        @Bean
        ResultRecorder resultRecorder() {
            return new ResultRecorder();
        }

        @Bean
        RecordingObservationHandler recordingObservationHandler() {
            return new RecordingObservationHandler();
        }

        @Bean
        AsyncQuotes asyncQuotes() {
            return new AsyncQuotes();
        }

    }

    /**
     * Keeps the account of every call.
     */
    static class ResultRecorder implements ExecutionListener {

        private final List<String> names = new CopyOnWriteArrayList<>();

        private final List<ExecutionResult<?>> results = new CopyOnWriteArrayList<>();

        @Override
        public void onComplete(String name, ExecutionResult<?> result) {
            this.names.add(name);
            this.results.add(result);
        }

        ExecutionResult<?> only(String name) {
            assertThat(this.names).containsExactly(name);
            return this.results.get(0);
        }

        void clear() {
            this.names.clear();
            this.results.clear();
        }

    }

    /**
     * Asynchronous methods whose attempts return what the test scripted, {@code ok} when
     * nothing is scripted.
     */
    static class AsyncQuotes {

        private final AtomicInteger attempts = new AtomicInteger();

        private final AtomicInteger fallbacks = new AtomicInteger();

        private final Queue<Supplier<CompletableFuture<String>>> script = new ConcurrentLinkedQueue<>();

        private volatile Supplier<CompletableFuture<String>> always = () -> CompletableFuture.completedFuture("ok");

        void script(Supplier<CompletableFuture<String>> attempt) {
            this.script.add(attempt);
            this.always = attempt;
        }

        void reset() {
            this.attempts.set(0);
            this.fallbacks.set(0);
            this.script.clear();
            this.always = () -> CompletableFuture.completedFuture("ok");
        }

        int attempts() {
            return this.attempts.get();
        }

        int fallbacks() {
            return this.fallbacks.get();
        }

        private CompletableFuture<String> next() {
            this.attempts.incrementAndGet();
            Supplier<CompletableFuture<String>> attempt = this.script.poll();
            return (attempt != null) ? attempt.get() : CompletableFuture.completedFuture("ok");
        }

        @Retryable(value = "async-quote", maxAttempts = 5, delay = "100ms", multiplier = 1.0)
        @Fallback("cachedQuote")
        public CompletableFuture<String> quote(String symbol) {
            this.attempts.incrementAndGet();
            return this.always.get();
        }

        CompletableFuture<String> cachedQuote(String symbol) {
            this.fallbacks.incrementAndGet();
            return CompletableFuture.completedFuture("cached " + symbol);
        }

        @Idempotent(key = "#key")
        @Retryable(value = "async-pay", maxAttempts = 1)
        public CompletableFuture<String> pay(String key) {
            return next();
        }

        @Retryable(value = "async-null", maxAttempts = 1)
        @CircuitGuarded("async-gateway")
        public CompletableFuture<String> guardedNull() {
            return null;
        }

        @Retryable(value = "immediate", maxAttempts = 5000, delay = "0ms")
        public CompletableFuture<String> immediate() {
            this.attempts.incrementAndGet();
            return CompletableFuture.failedFuture(new IOException("refused"));
        }

    }

}
