package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.RateLimited;
import dev.resilience.annotation.Retryable;
import dev.resilience.annotation.TimeLimited;
import dev.resilience.core.AttemptTimeoutException;
import dev.resilience.core.DeadlineExceededException;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The breaker, the time limiter, the bulkhead, the rate limiter and the retry deadline on
 * methods returning {@code Flux}, on the virtual clock: each judges an attempt by its
 * first signal, and leaves the rest of the stream to the subscriber.
 */
@SpringBootTest(classes = FluxCallsGuardsTests.TestApplication.class,
        properties = { "resilience.retry.defaults.jitter=none", "resilience.retry.defaults.budget.enabled=false",
                "resilience.async.executor=callerRunsExecutor",
                "resilience.circuit-breaker.instances.flux-breaker.minimum-calls=2",
                "resilience.circuit-breaker.instances.flux-breaker.sliding-window-size=2",
                "resilience.circuit-breaker.instances.flux-breaker.wait-in-open=1m",
                "resilience.circuit-breaker.instances.flux-degraded.minimum-calls=2",
                "resilience.circuit-breaker.instances.flux-degraded.sliding-window-size=2",
                "resilience.circuit-breaker.instances.flux-degraded.wait-in-open=1m" })
class FluxCallsGuardsTests {

    private static final Duration VERIFY_BOUND = Duration.ofSeconds(10);

    @Autowired
    private GuardedFeeds feeds;

    @Autowired
    private ScriptedFlux source;

    @Autowired
    private VirtualTimeSource clock;

    @Autowired
    private MonoCallsTests.ResultRecorder results;

    @Autowired
    private ResilienceRegistry registry;

    @BeforeEach
    void reset() {
        this.source.reset();
        this.results.clear();
    }

    @Test
    void breakerCountsErrorsBeforeTheFirstElementAndOpens() {
        CircuitBreaker breaker = closed("flux-breaker");
        long failedBefore = breaker.metrics().failedCallsTotal();
        this.source.script((subscription) -> Flux.error(new IOException("feed down")));

        Flux<String> assembled = this.feeds.guarded();
        StepVerifier.create(assembled).expectError(IOException.class).verify(VERIFY_BOUND);
        StepVerifier.create(this.feeds.guarded()).expectError(IOException.class).verify(VERIFY_BOUND);

        assertThat(breaker.metrics().failedCallsTotal() - failedBefore).isEqualTo(2);
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        StepVerifier.create(this.feeds.guarded()).expectError(CallNotPermittedException.class).verify(VERIFY_BOUND);
        assertThat(this.source.subscriptions()).as("an open breaker subscribes to nothing").isEqualTo(2);
    }

    @Test
    void breakerCountsAFluxFailingAfterItsFirstElementAsASuccessAndStaysClosed() {
        CircuitBreaker breaker = closed("flux-breaker");
        long failedBefore = breaker.metrics().failedCallsTotal();
        long succeededBefore = breaker.metrics().successfulCallsTotal();
        this.source.script((subscription) -> Flux.concat(Flux.just("a"), Flux.error(new IOException("feed cut"))));

        for (int call = 0; call < 2; call++) {
            StepVerifier.create(this.feeds.guarded())
                .expectNext("a")
                .expectError(IOException.class)
                .verify(VERIFY_BOUND);
        }

        assertThat(breaker.metrics().successfulCallsTotal() - succeededBefore).isEqualTo(2);
        assertThat(breaker.metrics().failedCallsTotal()).isEqualTo(failedBefore);
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
    }

    @Test
    void failOnResultJudgesTheFirstElementWhileTheSubscriberStillGetsTheStream() {
        CircuitBreaker breaker = closed("flux-degraded");
        long failedBefore = breaker.metrics().failedCallsTotal();
        this.source.script((subscription) -> Flux.just("degraded", "b"));

        for (int call = 0; call < 2; call++) {
            StepVerifier.create(this.feeds.degraded())
                .expectNext("degraded", "b")
                .expectComplete()
                .verify(VERIFY_BOUND);
        }

        assertThat(breaker.metrics().failedCallsTotal() - failedBefore).isEqualTo(2);
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
    }

    @Test
    void attemptWithoutAFirstSignalWithinTheTimeLimitIsCancelledAndTimesOut() {
        this.source.script((subscription) -> Flux.never());

        StepVerifier.create(this.feeds.bounded())
            .then(() -> this.clock.advance(Duration.ofMillis(999)))
            .then(() -> assertThat(this.source.cancellations()).isZero())
            .then(() -> this.clock.advance(Duration.ofMillis(1)))
            .expectError(AttemptTimeoutException.class)
            .verify(VERIFY_BOUND);

        assertThat(this.source.cancellations()).isEqualTo(1);
        assertThat(this.results.only("flux-time").status()).isEqualTo(ExecutionStatus.TIMEOUT);
    }

    @Test
    void timeLimitBoundsOnlyTheWaitForTheFirstSignalNotTheStream() {
        AtomicReference<Sinks.Many<String>> sink = new AtomicReference<>();
        this.source.script((subscription) -> {
            Sinks.Many<String> feed = Sinks.many().unicast().onBackpressureBuffer();
            feed.tryEmitNext("a");
            sink.set(feed);
            return feed.asFlux();
        });

        StepVerifier.create(this.feeds.bounded())
            .expectNext("a")
            .then(() -> this.clock.advance(Duration.ofSeconds(5)))
            .then(() -> sink.get().tryEmitNext("b"))
            .expectNext("b")
            .then(() -> sink.get().tryEmitComplete())
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(this.source.cancellations()).isZero();
        assertThat(this.results.only("flux-time").status()).isEqualTo(ExecutionStatus.SUCCESS);
    }

    @Test
    void bulkheadPermitIsGivenBackAtTheFirstElementWhileTheStreamGoesOn() {
        Bulkhead bulkhead = this.registry.findBulkhead("flux-guard-bulkhead").orElseThrow();
        this.source.script((subscription) -> Flux.concat(Flux.just("a"), Flux.never()));
        List<String> first = new CopyOnWriteArrayList<>();
        List<String> second = new CopyOnWriteArrayList<>();

        Disposable one = this.feeds.limited().subscribe(first::add);
        assertThat(first).containsExactly("a");
        assertThat(bulkhead.concurrentCalls()).isZero();
        Disposable two = this.feeds.limited().subscribe(second::add);
        one.dispose();
        two.dispose();

        assertThat(second).containsExactly("a");
        assertThat(this.source.subscriptions()).isEqualTo(2);
        assertThat(this.source.cancellations()).isEqualTo(2);
    }

    @Test
    void bulkheadRefusesASubscriptionWhileAnotherAwaitsItsFirstSignal() {
        Bulkhead bulkhead = this.registry.findBulkhead("flux-guard-bulkhead").orElseThrow();
        this.source.script((subscription) -> Flux.never());

        Disposable waiting = this.feeds.limited().subscribe();
        assertThat(bulkhead.concurrentCalls()).isEqualTo(1);
        StepVerifier.create(this.feeds.limited()).expectError(BulkheadFullException.class).verify(VERIFY_BOUND);
        waiting.dispose();

        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(this.source.subscriptions()).isEqualTo(1);
    }

    @Test
    void rateLimitedFluxWaitsForItsPermitBeforeSubscribing() {
        StepVerifier.create(this.feeds.rated()).expectNext("a", "b", "c").expectComplete().verify(VERIFY_BOUND);

        StepVerifier.create(this.feeds.rated())
            .then(() -> assertThat(this.source.subscriptions()).isEqualTo(1))
            .then(() -> this.clock.advance(Duration.ofMillis(999)))
            .then(() -> assertThat(this.source.subscriptions()).isEqualTo(1))
            .then(() -> this.clock.advance(Duration.ofMillis(1)))
            .expectNext("a", "b", "c")
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(this.source.subscriptions()).isEqualTo(2);
    }

    @Test
    void retryDeadlineEndsTheResubscriptions() {
        this.source.script((subscription) -> Flux.error(new IOException("feed down")));

        StepVerifier.create(this.feeds.deadlined())
            .then(() -> this.clock.advance(Duration.ofSeconds(1)))
            .then(() -> this.clock.advance(Duration.ofSeconds(1)))
            .then(() -> this.clock.advance(Duration.ofSeconds(1)))
            .expectError(DeadlineExceededException.class)
            .verify(VERIFY_BOUND);

        assertThat(this.source.subscriptions()).isEqualTo(3);
        ExecutionResult<?> result = this.results.only("flux-deadline");
        assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(result.attempts()).isEqualTo(3);
    }

    private CircuitBreaker closed(String name) {
        CircuitBreaker breaker = this.registry.findCircuitBreaker(name).orElseThrow();
        breaker.transitionTo(CircuitBreakerState.CLOSED);
        return breaker;
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
        MonoCallsTests.ResultRecorder resultRecorder() {
            return new MonoCallsTests.ResultRecorder();
        }

        @Bean
        ScriptedFlux scriptedFlux() {
            return new ScriptedFlux();
        }

        @Bean
        GuardedFeeds guardedFeeds(ScriptedFlux source) {
            return new GuardedFeeds(source);
        }

    }

    /**
     * Guarded methods returning the scripted {@code Flux}.
     */
    static class GuardedFeeds {

        private final ScriptedFlux source;

        GuardedFeeds(ScriptedFlux source) {
            this.source = source;
        }

        @Retryable(value = "flux-guarded", maxAttempts = 1)
        @CircuitGuarded("flux-breaker")
        public Flux<String> guarded() {
            return this.source.invoked();
        }

        @Retryable(value = "flux-degraded", maxAttempts = 1)
        @CircuitGuarded(value = "flux-degraded", failOnResult = "#result == 'degraded'")
        public Flux<String> degraded() {
            return this.source.invoked();
        }

        @Retryable(value = "flux-time", maxAttempts = 1)
        @TimeLimited(value = "flux-time", timeout = "1s")
        public Flux<String> bounded() {
            return this.source.invoked();
        }

        @dev.resilience.annotation.Bulkhead(value = "flux-guard-bulkhead", maxConcurrentCalls = 1, maxWait = "0ms")
        public Flux<String> limited() {
            return this.source.invoked();
        }

        @Retryable(value = "flux-rated", maxAttempts = 1)
        @RateLimited(value = "flux-rated", limit = 1, period = "1s", timeout = "5s")
        public Flux<String> rated() {
            return this.source.invoked();
        }

        @Retryable(value = "flux-deadline", maxAttempts = 10, delay = "1s", multiplier = 1, maxDuration = "2500ms")
        public Flux<String> deadlined() {
            return this.source.invoked();
        }

    }

}
