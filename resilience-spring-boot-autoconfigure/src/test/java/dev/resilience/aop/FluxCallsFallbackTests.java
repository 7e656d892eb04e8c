package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import reactor.util.context.Context;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fallback methods of methods returning {@code Flux}, on the virtual clock: a
 * {@code Flux} they return is subscribed as an attempt is, with the subscriber's context,
 * a plain value is one element, and an {@code Iterable} declared as such its elements.
 */
@SpringBootTest(classes = FluxCallsFallbackTests.TestApplication.class,
        properties = { "resilience.retry.defaults.jitter=none", "resilience.retry.defaults.budget.enabled=false",
                "resilience.async.executor=callerRunsExecutor" })
class FluxCallsFallbackTests {

    private static final Duration VERIFY_BOUND = Duration.ofSeconds(10);

    @Autowired
    private FallbackFeeds feeds;

    @Autowired
    private ScriptedFlux source;

    @Autowired
    private VirtualTimeSource clock;

    @Autowired
    private MonoCallsTests.ResultRecorder results;

    @BeforeEach
    void reset() {
        this.source.reset();
        this.results.clear();
        this.feeds.resetFallbackSubscriptions();
        this.source.script((subscription) -> Flux.error(new IOException("feed down")));
    }

    @Test
    void fallbackFluxAnswersWhenRetriesAreExhaustedWithTheSubscribersContext() {
        StepVerifier.create(this.feeds.withFallback("ETH").contextWrite(Context.of("tenant", "acme")))
            .then(() -> this.clock.advance(Duration.ofMillis(100)))
            .expectNext("cached ETH", "for acme")
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(this.source.subscriptions()).isEqualTo(2);
        ExecutionResult<?> result = this.results.only("flux-fallback");
        assertThat(result.fallbackUsed()).isTrue();
        assertThat(result.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "cachedFeed");
        assertThat(result.attempts()).isEqualTo(2);
    }

    @Test
    void failingFallbackFluxGivesWayToAPlainValueThatIsOneElement() {
        StepVerifier.create(this.feeds.withFallbacks("ETH"))
            .expectNext("plain ETH")
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(this.feeds.fallbackSubscriptions()).isEqualTo(1);
        assertThat(this.results.only("flux-fallbacks").metadata()).containsEntry(ExecutionResult.FALLBACK_NAME,
                "plainFeed");
    }

    @Test
    void fallbackReturningAListEmitsItsElements() {
        StepVerifier.create(this.feeds.withListFallback("ETH"))
            .expectNext("ETH 1", "ETH 2")
            .expectComplete()
            .verify(VERIFY_BOUND);
    }

    @Test
    void fallbackReturningNullCompletesEmpty() {
        StepVerifier.create(this.feeds.withNullFallback()).expectComplete().verify(VERIFY_BOUND);

        assertThat(this.results.only("flux-null-fallback").fallbackUsed()).isTrue();
    }

    @Test
    void errorAfterTheFallbacksFirstElementPassesThrough() {
        StepVerifier.create(this.feeds.withBrokenFallback())
            .expectNext("partial")
            .expectErrorMessage("cache cut")
            .verify(VERIFY_BOUND);

        assertThat(this.results.only("flux-broken-fallback").fallbackUsed()).isTrue();
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
        FallbackFeeds fallbackFeeds(ScriptedFlux source) {
            return new FallbackFeeds(source);
        }

    }

    /**
     * Methods returning the scripted {@code Flux}, with fallbacks of each kind.
     */
    static class FallbackFeeds {

        private final AtomicInteger fallbackSubscriptions = new AtomicInteger();

        private final ScriptedFlux source;

        FallbackFeeds(ScriptedFlux source) {
            this.source = source;
        }

        public int fallbackSubscriptions() {
            return this.fallbackSubscriptions.get();
        }

        public void resetFallbackSubscriptions() {
            this.fallbackSubscriptions.set(0);
        }

        @Retryable(value = "flux-fallback", maxAttempts = 2, delay = "100ms", multiplier = 1)
        @Fallback("cachedFeed")
        public Flux<String> withFallback(String symbol) {
            return this.source.invoked();
        }

        Flux<String> cachedFeed(String symbol, Throwable failure) {
            return Flux.deferContextual(
                    (context) -> Flux.just("cached " + symbol, "for " + context.getOrDefault("tenant", "nobody")));
        }

        @Retryable(value = "flux-fallbacks", maxAttempts = 1)
        @Fallback({ "failingFeed", "plainFeed" })
        public Flux<String> withFallbacks(String symbol) {
            return this.source.invoked();
        }

        Flux<String> failingFeed(String symbol) {
            return Flux.defer(() -> {
                this.fallbackSubscriptions.incrementAndGet();
                return Flux.error(new IOException("cache down"));
            });
        }

        String plainFeed(String symbol) {
            return "plain " + symbol;
        }

        @Retryable(value = "flux-list-fallback", maxAttempts = 1)
        @Fallback("listFeed")
        public Flux<String> withListFallback(String symbol) {
            return this.source.invoked();
        }

        List<String> listFeed(String symbol) {
            return new CopyOnWriteArrayList<>(List.of(symbol + " 1", symbol + " 2"));
        }

        @Retryable(value = "flux-null-fallback", maxAttempts = 1)
        @Fallback("nothing")
        public Flux<String> withNullFallback() {
            return this.source.invoked();
        }

        String nothing() {
            return null;
        }

        @Retryable(value = "flux-broken-fallback", maxAttempts = 1)
        @Fallback("brokenFeed")
        public Flux<String> withBrokenFallback() {
            return this.source.invoked();
        }

        Flux<String> brokenFeed() {
            return Flux.concat(Flux.just("partial"), Flux.error(new IOException("cache cut")));
        }

    }

}
