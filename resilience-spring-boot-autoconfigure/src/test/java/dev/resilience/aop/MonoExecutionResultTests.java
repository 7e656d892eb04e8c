package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
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
 * Methods returning {@code Mono<ExecutionResult<T>>}, through the proxy, on the virtual
 * clock with an executor that runs each step on the thread that moves the clock: each
 * subscription runs one call and emits its complete account, whatever its outcome, and
 * never signals the call's error.
 */
@SpringBootTest(classes = MonoExecutionResultTests.TestApplication.class,
        properties = { "resilience.retry.defaults.jitter=none", "resilience.retry.defaults.budget.enabled=false",
                "resilience.async.executor=callerRunsExecutor" })
class MonoExecutionResultTests {

    private static final Duration VERIFY_BOUND = Duration.ofSeconds(10);

    @Autowired
    private ResultQuotes quotes;

    @Autowired
    private VirtualTimeSource clock;

    @Autowired
    private ResilienceRegistry registry;

    @BeforeEach
    void reset() {
        this.quotes.reset();
    }

    @Test
    void resultOfACallThatSucceedsAtItsThirdSubscriptionHasItsValueAndThreeAttempts() {
        this.quotes.script((subscription) -> (subscription < 3) ? Mono.error(new IOException("oracle down"))
                : Mono.just(ExecutionResult.success("ETH 3100")));

        Duration start = this.clock.elapsed();
        Mono<ExecutionResult<String>> quote = this.quotes.quote("ETH");
        assertThat(this.quotes.subscriptions()).as("nothing runs at assembly").isZero();

        StepVerifier.create(quote)
            .then(() -> assertThat(this.quotes.subscriptions()).isEqualTo(1))
            .then(() -> this.clock.advance(Duration.ofMillis(100)))
            .then(() -> assertThat(this.quotes.subscriptions()).isEqualTo(2))
            .then(() -> this.clock.advance(Duration.ofMillis(200)))
            .assertNext((result) -> {
                assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
                assertThat(result.value()).isEqualTo("ETH 3100");
                assertThat(result.error()).isNull();
                assertThat(result.attempts()).isEqualTo(3);
                assertThat(result.attemptFailures()).map((failure) -> failure.error().getMessage())
                    .containsExactly("oracle down", "oracle down");
                assertThat(result.fallbackUsed()).isFalse();
                assertThat(result.duration()).isEqualTo(Duration.ofMillis(300));
            })
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(this.quotes.subscriptions()).isEqualTo(3);
        assertThat(this.clock.elapsed().minus(start)).isEqualTo(Duration.ofMillis(300));
    }

    @Test
    void callWhoseEveryAttemptFailsEmitsItsErrorResultAndSignalsNoError() {
        this.quotes.script((subscription) -> Mono.error(new IOException("oracle down " + subscription)));

        StepVerifier.create(this.quotes.quote("ETH"))
            .then(() -> this.clock.advance(Duration.ofMillis(300)))
            .assertNext((result) -> {
                assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
                assertThat(result.value()).isNull();
                assertThat(result.error()).isInstanceOf(IOException.class).hasMessage("oracle down 3");
                assertThat(result.attempts()).isEqualTo(3);
                assertThat(result.fallbackUsed()).isFalse();
            })
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(this.quotes.subscriptions()).isEqualTo(3);
    }

    @Test
    void attemptWhoseResultCarriesNoValueEndsTheCallWithANullValue() {
        this.quotes.script((subscription) -> Mono.empty());

        StepVerifier.create(this.quotes.quote("ETH")).assertNext((result) -> {
            assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
            assertThat(result.value()).isNull();
            assertThat(result.attempts()).isEqualTo(1);
        }).expectComplete().verify(VERIFY_BOUND);

        assertThat(this.quotes.subscriptions()).isEqualTo(1);
    }

    @Test
    void fallbackMonoOfAResultAnswersWithItsValueAndTheSubscribersContext() {
        this.quotes.script((subscription) -> Mono.error(new IOException("oracle down")));

        StepVerifier.create(this.quotes.withFallback("ETH").contextWrite(Context.of("tenant", "acme")))
            .then(() -> this.clock.advance(Duration.ofMillis(100)))
            .assertNext((result) -> {
                assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
                assertThat(result.value()).isEqualTo("cached ETH for acme");
                assertThat(result.attempts()).isEqualTo(2);
                assertThat(result.fallbackUsed()).isTrue();
                assertThat(result.fallbackIndex()).isEqualTo(1);
                assertThat(result.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "cachedQuote");
            })
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(this.quotes.subscriptions()).isEqualTo(2);
    }

    @Test
    void failedFallbackMonoGivesWayToAPlainResultFallback() {
        this.quotes.script((subscription) -> Mono.error(new IOException("oracle down")));

        StepVerifier.create(this.quotes.withFallbacks("ETH")).assertNext((result) -> {
            assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
            assertThat(result.value()).isEqualTo("plain ETH");
            assertThat(result.attempts()).isEqualTo(1);
            assertThat(result.fallbackUsed()).isTrue();
            assertThat(result.fallbackIndex()).isEqualTo(2);
        }).expectComplete().verify(VERIFY_BOUND);

        assertThat(this.quotes.fallbackSubscriptions()).isEqualTo(1);
    }

    @Test
    void openBreakerEmitsARejectedResultWithoutSubscribing() {
        StepVerifier.create(this.quotes.guarded())
            .assertNext((result) -> assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS))
            .expectComplete()
            .verify(VERIFY_BOUND);
        this.registry.findCircuitBreaker("result-breaker").orElseThrow().transitionTo(CircuitBreakerState.FORCED_OPEN);

        StepVerifier.create(this.quotes.guarded()).assertNext((result) -> {
            assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
            assertThat(result.error()).isInstanceOf(CallNotPermittedException.class);
            assertThat(result.attempts()).as("refused before its first attempt").isZero();
            assertThat(result.attemptFailures()).isEmpty();
        }).expectComplete().verify(VERIFY_BOUND);

        assertThat(this.quotes.subscriptions()).as("only the call before the breaker opened").isEqualTo(1);
    }

    @Test
    void disposingTheSubscriptionStopsFurtherAttemptsAndEmitsNothing() {
        this.quotes.script((subscription) -> Mono.error(new IOException("oracle down")));
        AtomicInteger signals = new AtomicInteger();

        Disposable subscription = this.quotes.quote("ETH")
            .subscribe((result) -> signals.incrementAndGet(), (error) -> signals.incrementAndGet(),
                    signals::incrementAndGet);
        assertThat(this.quotes.subscriptions()).isEqualTo(1);
        subscription.dispose();
        this.clock.advance(Duration.ofSeconds(10));

        assertThat(this.quotes.subscriptions()).isEqualTo(1);
        assertThat(signals).hasValue(0);
    }

    @Test
    void eachSubscriptionEmitsTheResultOfItsOwnCall() {
        this.quotes.script((subscription) -> Mono.just(ExecutionResult.success("call " + subscription)));
        Mono<ExecutionResult<String>> quote = this.quotes.quote("ETH");

        StepVerifier.create(quote.map(ExecutionResult::value))
            .expectNext("call 1")
            .expectComplete()
            .verify(VERIFY_BOUND);
        StepVerifier.create(quote.map(ExecutionResult::value))
            .expectNext("call 2")
            .expectComplete()
            .verify(VERIFY_BOUND);
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
        ResultQuotes resultQuotes() {
            return new ResultQuotes();
        }

    }

    /**
     * Methods returning a {@code Mono} of an {@code ExecutionResult}, whose n-th
     * subscription does what the test scripted.
     */
    static class ResultQuotes {

        private final AtomicInteger subscriptions = new AtomicInteger();

        private final AtomicInteger fallbackSubscriptions = new AtomicInteger();

        private volatile IntFunction<Mono<ExecutionResult<String>>> script = (subscription) -> Mono
            .just(ExecutionResult.success("ok"));

        void script(IntFunction<Mono<ExecutionResult<String>>> script) {
            this.script = script;
        }

        void reset() {
            this.subscriptions.set(0);
            this.fallbackSubscriptions.set(0);
            this.script = (subscription) -> Mono.just(ExecutionResult.success("ok"));
        }

        int subscriptions() {
            return this.subscriptions.get();
        }

        int fallbackSubscriptions() {
            return this.fallbackSubscriptions.get();
        }

        private Mono<ExecutionResult<String>> scripted() {
            return Mono.defer(() -> this.script.apply(this.subscriptions.incrementAndGet()));
        }

        @Retryable(value = "result-quote", maxAttempts = 3, delay = "100ms", multiplier = 2)
        public Mono<ExecutionResult<String>> quote(String symbol) {
            return scripted();
        }

        @Retryable(value = "result-fallback", maxAttempts = 2, delay = "100ms", multiplier = 1)
        @Fallback("cachedQuote")
        public Mono<ExecutionResult<String>> withFallback(String symbol) {
            return scripted();
        }

        Mono<ExecutionResult<String>> cachedQuote(String symbol, Throwable failure) {
            return Mono.deferContextual((context) -> Mono.just(
                    ExecutionResult.success("cached " + symbol + " for " + context.getOrDefault("tenant", "nobody"))));
        }

        @Retryable(value = "result-fallbacks", maxAttempts = 1)
        @Fallback({ "failingQuote", "plainQuote" })
        public Mono<ExecutionResult<String>> withFallbacks(String symbol) {
            return scripted();
        }

        Mono<ExecutionResult<String>> failingQuote(String symbol) {
            return Mono.defer(() -> {
                this.fallbackSubscriptions.incrementAndGet();
                return Mono.error(new IOException("cache down"));
            });
        }

        ExecutionResult<String> plainQuote(String symbol) {
            return ExecutionResult.success("plain " + symbol);
        }

        @Retryable(value = "result-guarded", maxAttempts = 3, delay = "100ms")
        @CircuitGuarded("result-breaker")
        public Mono<ExecutionResult<String>> guarded() {
            return scripted();
        }

    }

}
