package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.AttemptTimeoutException;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.retry.RetryAfter;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The failure paths of synchronous annotated methods, through the proxy, on the virtual
 * clock.
 */
@SpringBootTest(classes = SyncFailurePathsTests.TestApplication.class,
        properties = { "resilience.retry.defaults.jitter=none", "resilience.async.executor=callerRunsExecutor",
                "resilience.retry.instances.post.budget.enabled=false" })
class SyncFailurePathsTests {

    private static final IOException SHARED = new IOException("ledger unavailable");

    @Autowired
    private Ledger ledger;

    @Autowired
    private Quotes quotes;

    @Autowired
    private VirtualTimeSource clock;

    @Autowired
    private ResilienceRegistry registry;

    private int sleepsBefore;

    @BeforeEach
    void reset() {
        this.ledger.reset();
        this.quotes.reset();
        this.sleepsBefore = this.clock.sleeps().size();
        this.registry.findCircuitBreaker("nested-oracle").orElseThrow().transitionTo(CircuitBreakerState.CLOSED);
    }

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private List<Duration> sleeps() {
        List<Duration> all = this.clock.sleeps();
        return all.subList(this.sleepsBefore, all.size());
    }

    @Test
    void interruptedExceptionThrownByTheMethodIsNotRetriedAndKeepsTheFlag() {
        assertThatExceptionOfType(InterruptedException.class).isThrownBy(() -> this.ledger.awaitLedger())
            .withMessage("shutting down");

        assertThat(Thread.currentThread().isInterrupted()).isTrue();
        assertThat(this.ledger.runs()).isEqualTo(1);
        assertThat(sleeps()).isEmpty();
    }

    @Test
    void breakerRejectionFromANestedBeanIsNotRetriedAndEndsRejected() {
        this.registry.findCircuitBreaker("nested-oracle").orElseThrow().transitionTo(CircuitBreakerState.FORCED_OPEN);
        long retriesBefore = this.registry.retryPolicies().get("nested-quote").budget().retriesInWindow();

        ExecutionResult<String> result = this.quotes.quoteEnvelope("ETH");

        assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(result.error()).isInstanceOf(CallNotPermittedException.class);
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(sleeps()).isEmpty();
        assertThat(this.registry.retryPolicies().get("nested-quote").budget().retriesInWindow())
            .isEqualTo(retriesBefore);
    }

    @Test
    void breakerRejectionFromANestedBeanGoesStraightToTheFallback() {
        this.registry.findCircuitBreaker("nested-oracle").orElseThrow().transitionTo(CircuitBreakerState.FORCED_OPEN);

        assertThat(this.quotes.quoteWithFallback("ETH")).isEqualTo("stale ETH");
        assertThat(this.quotes.runs()).isEqualTo(1);
        assertThat(sleeps()).isEmpty();
    }

    @Test
    void sharedExceptionThrownOnTheLastAttemptNeverCollectsOtherCallsErrors() {
        for (int call = 0; call < 1000; call++) {
            assertThatExceptionOfType(IOException.class)
                .isThrownBy(() -> this.ledger.post("order-" + this.ledger.runs()))
                .isSameAs(SHARED);
        }

        assertThat(SHARED.getSuppressed()).isEmpty();
        assertThat(SHARED).hasMessage("ledger unavailable");
        assertThat(this.ledger.runs()).isEqualTo(3000);
    }

    @Test
    void attemptThatOverrunsItsTimeoutIsATimeoutWhateverItReturnsAndNothingIsStored() {
        assertThatExceptionOfType(AttemptTimeoutException.class).isThrownBy(() -> this.ledger.lines("export-1"));
        assertThatExceptionOfType(AttemptTimeoutException.class).isThrownBy(() -> this.ledger.lines("export-1"));

        assertThat(this.ledger.runs()).isEqualTo(2);
    }

    @Test
    void hugeRetryAfterHintIsCappedByTheMaxDelay() throws Exception {
        assertThat(this.ledger.throttled()).isEqualTo("posted");

        assertThat(sleeps()).containsExactly(Duration.ofSeconds(2));
        assertThat(this.ledger.runs()).isEqualTo(2);
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
        Ledger ledger(VirtualTimeSource clock) {
            return new Ledger(clock);
        }

        @Bean
        Oracle oracle() {
            return new Oracle();
        }

        @Bean
        Quotes quotes(Oracle oracle) {
            return new Quotes(oracle);
        }

    }

    static class Ledger {

        private final AtomicInteger runs = new AtomicInteger();

        private final VirtualTimeSource clock;

        Ledger(VirtualTimeSource clock) {
            this.clock = clock;
        }

        int runs() {
            return this.runs.get();
        }

        void reset() {
            this.runs.set(0);
        }

        @Retryable(value = "await-ledger", maxAttempts = 3, delay = "100ms")
        public String awaitLedger() throws InterruptedException {
            this.runs.incrementAndGet();
            throw new InterruptedException("shutting down");
        }

        @Retryable(value = "post", maxAttempts = 3, delay = "0ms")
        public String post(String order) throws IOException {
            if (this.runs.incrementAndGet() % 3 != 0) {
                throw new IOException("could not post " + order);
            }
            throw SHARED;
        }

        @Idempotent(key = "#key")
        @Retryable(value = "lines", maxAttempts = 1, attemptTimeout = "100ms")
        public List<String> lines(String key) {
            this.runs.incrementAndGet();
            this.clock.advance(Duration.ofMillis(200));
            Thread.interrupted();
            return List.of();
        }

        @Retryable(value = "throttled", maxAttempts = 2, delay = "100ms", maxDelay = "2s")
        public String throttled() throws IOException {
            if (this.runs.incrementAndGet() == 1) {
                throw new ThrottledException(Duration.ofSeconds(Long.MAX_VALUE));
            }
            return "posted";
        }

    }

    static class Oracle {

        @CircuitGuarded("nested-oracle")
        public String price(String symbol) {
            return "42 " + symbol;
        }

    }

    static class Quotes {

        private final AtomicInteger runs = new AtomicInteger();

        private final Oracle oracle;

        Quotes(Oracle oracle) {
            this.oracle = oracle;
        }

        int runs() {
            return this.runs.get();
        }

        void reset() {
            this.runs.set(0);
        }

        @Retryable(value = "nested-quote", maxAttempts = 3, delay = "100ms")
        public ExecutionResult<String> quoteEnvelope(String symbol) {
            return ExecutionResult.success(this.oracle.price(symbol));
        }

        @Retryable(value = "nested-quote-with-fallback", maxAttempts = 3, delay = "100ms")
        @Fallback("staleQuote")
        public String quoteWithFallback(String symbol) {
            this.runs.incrementAndGet();
            return this.oracle.price(symbol);
        }

        String staleQuote(String symbol) {
            return "stale " + symbol;
        }

    }

    static class ThrottledException extends IOException implements RetryAfter {

        private final Duration retryAfter;

        ThrottledException(Duration retryAfter) {
            super("429 Too Many Requests");
            this.retryAfter = retryAfter;
        }

        @Override
        public Duration retryAfter() {
            return this.retryAfter;
        }

    }

}
