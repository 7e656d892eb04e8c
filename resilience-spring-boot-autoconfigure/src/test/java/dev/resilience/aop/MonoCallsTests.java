package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Hedged;
import dev.resilience.annotation.RateLimited;
import dev.resilience.annotation.Retryable;
import dev.resilience.annotation.TimeLimited;
import dev.resilience.core.AttemptTimeoutException;
import dev.resilience.core.ExecutionListener;
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
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.util.context.Context;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Methods returning {@code Mono}, through the proxy, on the virtual clock with an
 * executor that runs each step on the thread that moves the clock: each attempt is one
 * subscription, and the call is the subscription to the {@code Mono} the proxy returns.
 * Longer than 400 lines because every policy's Mono case shares the one application and
 * virtual clock set up here.
 */
@SpringBootTest(classes = MonoCallsTests.TestApplication.class,
        properties = { "resilience.retry.defaults.jitter=none", "resilience.retry.defaults.budget.enabled=false",
                "resilience.async.executor=callerRunsExecutor",
                "resilience.circuit-breaker.instances.mono-breaker.minimum-calls=2",
                "resilience.circuit-breaker.instances.mono-breaker.sliding-window-size=2",
                "resilience.circuit-breaker.instances.mono-breaker.wait-in-open=1m" })
class MonoCallsTests {

    private static final Duration VERIFY_BOUND = Duration.ofSeconds(10);

    @Autowired
    private MonoQuotes quotes;

    @Autowired
    private VirtualTimeSource clock;

    @Autowired
    private ResultRecorder results;

    @Autowired
    private ResilienceRegistry registry;

    @BeforeEach
    void reset() {
        this.quotes.reset();
        this.results.clear();
    }

    @Test
    void monoFailingTwiceThenSucceedingIsSubscribedThreeTimesWithTheBackoffOnTheVirtualClock() throws Exception {
        this.quotes.script((subscription) -> (subscription < 3) ? Mono.error(new IOException("oracle down"))
                : Mono.just("ETH 3100"));

        Duration start = this.clock.elapsed();
        Mono<String> quote = this.quotes.quote("ETH");
        assertThat(this.quotes.subscriptions()).as("nothing runs at assembly").isZero();

        StepVerifier.create(quote)
            .then(() -> assertThat(this.quotes.subscriptions()).isEqualTo(1))
            .then(() -> this.clock.advance(Duration.ofMillis(99)))
            .then(() -> assertThat(this.quotes.subscriptions()).isEqualTo(1))
            .then(() -> this.clock.advance(Duration.ofMillis(1)))
            .then(() -> assertThat(this.quotes.subscriptions()).isEqualTo(2))
            .then(() -> this.clock.advance(Duration.ofMillis(199)))
            .then(() -> assertThat(this.quotes.subscriptions()).isEqualTo(2))
            .then(() -> this.clock.advance(Duration.ofMillis(1)))
            .expectNext("ETH 3100")
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(this.quotes.subscriptions()).isEqualTo(3);
        assertThat(this.clock.elapsed().minus(start)).isEqualTo(Duration.ofMillis(300));
        ExecutionResult<?> result = this.results.only("mono-quote");
        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.attempts()).isEqualTo(3);
    }

    @Test
    void eachSubscriptionToTheReturnedMonoIsACallOfItsOwn() throws Exception {
        Mono<String> quote = this.quotes.quote("ETH");

        StepVerifier.create(quote).expectNext("ok").expectComplete().verify(VERIFY_BOUND);
        StepVerifier.create(quote).expectNext("ok").expectComplete().verify(VERIFY_BOUND);

        assertThat(this.quotes.subscriptions()).isEqualTo(2);
        assertThat(this.results.all()).hasSize(2);
    }

    @Test
    void emptyMonoCompletesEmptyAsASuccess() throws Exception {
        this.quotes.script((subscription) -> Mono.empty());

        StepVerifier.create(this.quotes.quote("ETH")).expectComplete().verify(VERIFY_BOUND);

        assertThat(this.quotes.subscriptions()).isEqualTo(1);
        assertThat(this.results.only("mono-quote").status()).isEqualTo(ExecutionStatus.SUCCESS);
    }

    @Test
    void breakerCountsThePublishersFailureNotASuccessAtAssembly() {
        CircuitBreaker breaker = this.registry.findCircuitBreaker("mono-breaker").orElseThrow();
        breaker.transitionTo(CircuitBreakerState.CLOSED);
        long failedBefore = breaker.metrics().failedCallsTotal();
        long succeededBefore = breaker.metrics().successfulCallsTotal();
        this.quotes.script((subscription) -> Mono.error(new IOException("oracle down")));

        Mono<String> assembled = this.quotes.guarded();
        assertThat(breaker.metrics().successfulCallsTotal()).isEqualTo(succeededBefore);
        StepVerifier.create(assembled).expectError(IOException.class).verify(VERIFY_BOUND);
        StepVerifier.create(this.quotes.guarded()).expectError(IOException.class).verify(VERIFY_BOUND);

        assertThat(breaker.metrics().failedCallsTotal() - failedBefore).isEqualTo(2);
        assertThat(breaker.metrics().successfulCallsTotal()).isEqualTo(succeededBefore);
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        StepVerifier.create(this.quotes.guarded()).expectError(CallNotPermittedException.class).verify(VERIFY_BOUND);
        assertThat(this.quotes.subscriptions()).as("an open breaker subscribes to nothing").isEqualTo(2);
    }

    @Test
    void disposingTheSubscriptionMidBackoffStopsFurtherAttempts() {
        this.quotes.script((subscription) -> Mono.error(new IOException("oracle down")));

        Disposable subscription = this.quotes.limited().subscribe((value) -> {
        }, (error) -> {
        });
        assertThat(this.quotes.subscriptions()).isEqualTo(1);
        assertThat(this.clock.pendingTasks()).as("the backoff").isEqualTo(1);
        subscription.dispose();
        this.clock.advance(Duration.ofSeconds(10));

        assertThat(this.quotes.subscriptions()).isEqualTo(1);
        assertThat(this.clock.pendingTasks()).isZero();
        assertThat(this.registry.findBulkhead("mono-bulkhead").orElseThrow().concurrentCalls()).isZero();
        ExecutionResult<?> result = this.results.only("mono-limited");
        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.error()).isInstanceOf(CancellationException.class);
        assertThat(result.attempts()).isEqualTo(1);
    }

    @Test
    void disposingTheSubscriptionMidAttemptCancelsTheAttemptAndReleasesTheBulkheadPermit() {
        Bulkhead bulkhead = this.registry.findBulkhead("mono-bulkhead").orElseThrow();
        this.quotes.script((subscription) -> Mono.never());

        Disposable running = this.quotes.limited().subscribe();
        assertThat(bulkhead.concurrentCalls()).isEqualTo(1);
        StepVerifier.create(this.quotes.limited()).expectError(BulkheadFullException.class).verify(VERIFY_BOUND);
        running.dispose();

        assertThat(this.quotes.cancellations()).as("the attempt's subscription").isEqualTo(1);
        assertThat(bulkhead.concurrentCalls()).isZero();
        this.quotes.script((subscription) -> Mono.just("free"));
        StepVerifier.create(this.quotes.limited()).expectNext("free").expectComplete().verify(VERIFY_BOUND);
        this.clock.advance(Duration.ofSeconds(10));
        assertThat(this.quotes.subscriptions()).isEqualTo(2);
    }

    @Test
    void fallbackMonoAnswersWhenRetriesAreExhaustedWithTheSubscribersContext() {
        List<String> tenants = new CopyOnWriteArrayList<>();
        this.quotes.script((subscription) -> Mono.deferContextual((context) -> {
            tenants.add(context.get("tenant"));
            return Mono.error(new IOException("oracle down"));
        }));

        StepVerifier.create(this.quotes.withFallback("ETH").contextWrite(Context.of("tenant", "acme")))
            .then(() -> this.clock.advance(Duration.ofMillis(100)))
            .expectNext("cached ETH for acme")
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(this.quotes.subscriptions()).isEqualTo(2);
        assertThat(tenants).containsExactly("acme", "acme");
        ExecutionResult<?> result = this.results.only("mono-fallback");
        assertThat(result.fallbackUsed()).isTrue();
        assertThat(result.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "cachedQuote");
        assertThat(result.attempts()).isEqualTo(2);
    }

    @Test
    void failingFallbackMonoGivesWayToTheNextFallback() {
        this.quotes.script((subscription) -> Mono.error(new IOException("oracle down")));

        StepVerifier.create(this.quotes.withFallbacks("ETH"))
            .expectNext("plain ETH")
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(this.quotes.fallbackSubscriptions()).isEqualTo(1);
        assertThat(this.results.only("mono-fallbacks").metadata()).containsEntry(ExecutionResult.FALLBACK_NAME,
                "plainQuote");
    }

    @Test
    void attemptOutlivingItsTimeLimitIsCancelledAndTimesOut() {
        this.quotes.script((subscription) -> Mono.never());

        StepVerifier.create(this.quotes.bounded())
            .then(() -> this.clock.advance(Duration.ofSeconds(1)))
            .expectError(AttemptTimeoutException.class)
            .verify(VERIFY_BOUND);

        assertThat(this.quotes.cancellations()).isEqualTo(1);
        assertThat(this.results.only("mono-time").status()).isEqualTo(ExecutionStatus.TIMEOUT);
    }

    @Test
    void rateLimitedMonoWaitsForItsPermitWithoutSubscribing() {
        StepVerifier.create(this.quotes.rated()).expectNext("ok").expectComplete().verify(VERIFY_BOUND);

        StepVerifier.create(this.quotes.rated())
            .then(() -> assertThat(this.quotes.subscriptions()).isEqualTo(1))
            .then(() -> this.clock.advance(Duration.ofSeconds(1)))
            .expectNext("ok")
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(this.quotes.subscriptions()).isEqualTo(2);
    }

    @Test
    void hedgeSubscribesAgainAndTheLosersSubscriptionIsCancelled() {
        this.quotes.script((subscription) -> (subscription == 1) ? Mono.never() : Mono.just("hedge"));

        StepVerifier.create(this.quotes.hedged())
            .then(() -> assertThat(this.quotes.subscriptions()).isEqualTo(1))
            .then(() -> this.clock.advance(Duration.ofMillis(100)))
            .expectNext("hedge")
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(this.quotes.subscriptions()).isEqualTo(2);
        assertThat(this.quotes.cancellations()).isEqualTo(1);
    }

    @Test
    void methodThrowingOrReturningNullInsteadOfAMonoIsAFailedAttempt() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        this.quotes.assembly(() -> {
            int call = calls.incrementAndGet();
            if (call == 1) {
                throw new IOException("no connection");
            }
            return (call == 2) ? null : Mono.just("third time");
        });

        StepVerifier.create(this.quotes.quote("ETH"))
            .then(() -> this.clock.advance(Duration.ofMillis(300)))
            .expectNext("third time")
            .expectComplete()
            .verify(VERIFY_BOUND);

        ExecutionResult<?> result = this.results.only("mono-quote");
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(result.attemptFailures()).map((failure) -> failure.error().getClass().getName())
            .containsExactly(IOException.class.getName(), NullPointerException.class.getName());
    }

    @Test
    void lastGoodValueAnswersAFailedSubscriptionWhenCallersAreNotScoped() {
        StepVerifier.create(this.quotes.lastGood()).expectNext("ok").expectComplete().verify(VERIFY_BOUND);
        this.quotes.script((subscription) -> Mono.error(new IOException("oracle down")));

        StepVerifier.create(this.quotes.lastGood()).expectNext("ok").expectComplete().verify(VERIFY_BOUND);

        assertThat(this.quotes.subscriptions()).isEqualTo(2);
        assertThat(this.results.all()).last().satisfies((result) -> assertThat(result.fallbackUsed()).isTrue());
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
        IdempotencyScopeResolver unscopedCallers() {
            return IdempotencyScopeResolver.NONE;
        }

        @Bean
        ResultRecorder resultRecorder() {
            return new ResultRecorder();
        }

        @Bean
        MonoQuotes monoQuotes() {
            return new MonoQuotes();
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

        List<ExecutionResult<?>> all() {
            return this.results;
        }

        void clear() {
            this.names.clear();
            this.results.clear();
        }

    }

    /**
     * Methods returning a {@code Mono} that counts its subscriptions and cancellations,
     * and whose n-th subscription does what the test scripted ({@code ok} when nothing is
     * scripted).
     */
    static class MonoQuotes {

        private final AtomicInteger subscriptions = new AtomicInteger();

        private final AtomicInteger cancellations = new AtomicInteger();

        private final AtomicInteger fallbackSubscriptions = new AtomicInteger();

        private volatile IntFunction<Mono<String>> script = (subscription) -> Mono.just("ok");

        private volatile Callable<Mono<String>> assembly = this::scripted;

        void assembly(Callable<Mono<String>> assembly) {
            this.assembly = assembly;
        }

        void script(IntFunction<Mono<String>> script) {
            this.script = script;
        }

        void reset() {
            this.subscriptions.set(0);
            this.cancellations.set(0);
            this.fallbackSubscriptions.set(0);
            this.script = (subscription) -> Mono.just("ok");
            this.assembly = this::scripted;
        }

        int subscriptions() {
            return this.subscriptions.get();
        }

        int cancellations() {
            return this.cancellations.get();
        }

        int fallbackSubscriptions() {
            return this.fallbackSubscriptions.get();
        }

        private Mono<String> scripted() {
            return Mono.defer(() -> this.script.apply(this.subscriptions.incrementAndGet()))
                .doOnCancel(this.cancellations::incrementAndGet);
        }

        @Retryable(value = "mono-quote", maxAttempts = 3, delay = "100ms", multiplier = 2)
        public Mono<String> quote(String symbol) throws Exception {
            return this.assembly.call();
        }

        @Retryable(value = "mono-last-good", maxAttempts = 1)
        @Fallback(lastGood = "1h")
        public Mono<String> lastGood() {
            return scripted();
        }

        @Retryable(value = "mono-guarded", maxAttempts = 1)
        @CircuitGuarded("mono-breaker")
        public Mono<String> guarded() {
            return scripted();
        }

        @Retryable(value = "mono-limited", maxAttempts = 3, delay = "1s", multiplier = 1)
        @dev.resilience.annotation.Bulkhead(value = "mono-bulkhead", maxConcurrentCalls = 1, maxWait = "0ms")
        public Mono<String> limited() {
            return scripted();
        }

        @Retryable(value = "mono-fallback", maxAttempts = 2, delay = "100ms", multiplier = 1)
        @Fallback("cachedQuote")
        public Mono<String> withFallback(String symbol) {
            return scripted();
        }

        Mono<String> cachedQuote(String symbol, Throwable failure) {
            return Mono.deferContextual(
                    (context) -> Mono.just("cached " + symbol + " for " + context.getOrDefault("tenant", "nobody")));
        }

        @Retryable(value = "mono-fallbacks", maxAttempts = 1)
        @Fallback({ "failingQuote", "plainQuote" })
        public Mono<String> withFallbacks(String symbol) {
            return scripted();
        }

        Mono<String> failingQuote(String symbol) {
            return Mono.defer(() -> {
                this.fallbackSubscriptions.incrementAndGet();
                return Mono.error(new IOException("cache down"));
            });
        }

        String plainQuote(String symbol) {
            return "plain " + symbol;
        }

        @Retryable(value = "mono-time", maxAttempts = 1)
        @TimeLimited(value = "mono-time", timeout = "1s")
        public Mono<String> bounded() {
            return scripted();
        }

        @Retryable(value = "mono-rated", maxAttempts = 1)
        @RateLimited(value = "mono-rated", limit = 1, period = "1s", timeout = "5s")
        public Mono<String> rated() {
            return scripted();
        }

        @Retryable(value = "mono-hedged", maxAttempts = 1)
        @Hedged(value = "mono-hedged", delay = "100ms", maxHedges = 1)
        public Mono<String> hedged() {
            return scripted();
        }

    }

}
