package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;

import dev.resilience.annotation.Retryable;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.RejectedResultException;
import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.Disposable;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.SignalType;
import reactor.test.StepVerifier;
import reactor.util.context.Context;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Methods returning {@code Flux}, through the proxy, on the virtual clock with an
 * executor that runs each step on the thread that moves the clock: each attempt is one
 * subscription, retried only while it has emitted nothing, and the subscriber gets the
 * rest of the attempt that emitted first, with its demand and its cancellation.
 */
@SpringBootTest(classes = FluxCallsTests.TestApplication.class, properties = { "resilience.retry.defaults.jitter=none",
        "resilience.retry.defaults.budget.enabled=false", "resilience.async.executor=callerRunsExecutor" })
class FluxCallsTests {

    private static final Duration VERIFY_BOUND = Duration.ofSeconds(10);

    @Autowired
    private FluxQuotes quotes;

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
    void fluxFailingTwiceBeforeAnyElementIsResubscribedWithTheBackoffAndStreamsEachElementOnce() {
        this.source.script((subscription) -> (subscription < 3) ? Flux.error(new IOException("feed down"))
                : Flux.just("a", "b", "c"));

        Duration start = this.clock.elapsed();
        Flux<String> quotes = this.quotes.quotes();
        assertThat(this.source.subscriptions()).as("nothing runs at assembly").isZero();

        StepVerifier.create(quotes)
            .then(() -> assertThat(this.source.subscriptions()).isEqualTo(1))
            .then(() -> this.clock.advance(Duration.ofMillis(99)))
            .then(() -> assertThat(this.source.subscriptions()).isEqualTo(1))
            .then(() -> this.clock.advance(Duration.ofMillis(1)))
            .then(() -> assertThat(this.source.subscriptions()).isEqualTo(2))
            .then(() -> this.clock.advance(Duration.ofMillis(200)))
            .expectNext("a", "b", "c")
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(this.source.subscriptions()).isEqualTo(3);
        assertThat(this.source.invocations()).as("the method is invoked once per attempt").isEqualTo(3);
        assertThat(this.clock.elapsed().minus(start)).isEqualTo(Duration.ofMillis(300));
        ExecutionResult<?> result = this.results.only("flux-quotes");
        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(result.value()).as("the first element ends the call").isEqualTo("a");
    }

    @Test
    void fluxFailingAfterItsFirstElementIsNotResubscribedAndItsErrorPassesThrough() {
        this.source.script((subscription) -> Flux.concat(Flux.just("a"), Flux.error(new IOException("feed cut"))));

        StepVerifier.create(this.quotes.quotes()).expectNext("a").expectErrorMessage("feed cut").verify(VERIFY_BOUND);
        this.clock.advance(Duration.ofSeconds(10));

        assertThat(this.source.invocations()).isEqualTo(1);
        assertThat(this.source.subscriptions()).isEqualTo(1);
        assertThat(this.clock.pendingTasks()).isZero();
        ExecutionResult<?> result = this.results.only("flux-quotes");
        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.attempts()).isEqualTo(1);
    }

    @Test
    void eachSubscriptionToTheReturnedFluxIsACallOfItsOwn() {
        Flux<String> quotes = this.quotes.quotes();

        StepVerifier.create(quotes).expectNext("a", "b", "c").expectComplete().verify(VERIFY_BOUND);
        StepVerifier.create(quotes).expectNext("a", "b", "c").expectComplete().verify(VERIFY_BOUND);

        assertThat(this.source.subscriptions()).isEqualTo(2);
        assertThat(this.results.all()).hasSize(2);
    }

    @Test
    void subscriptionCancelledInsideOnSubscribeInvokesNothingAndRecordsNoCall() {
        List<String> signals = new CopyOnWriteArrayList<>();

        this.quotes.quotes().subscribe(new BaseSubscriber<>() {

            @Override
            protected void hookOnSubscribe(Subscription subscription) {
                signals.add("subscribed");
                cancel();
            }

            @Override
            protected void hookFinally(SignalType type) {
                signals.add(type.name());
            }

        });

        assertThat(signals).containsExactly("subscribed", "CANCEL");
        assertThat(this.source.invocations()).isZero();
        assertThat(this.source.subscriptions()).isZero();
        assertThat(this.results.all()).as("no call ended").isEmpty();
    }

    @Test
    void emptyFluxCompletesEmptyAsASuccess() {
        this.source.script((subscription) -> Flux.empty());

        StepVerifier.create(this.quotes.quotes()).expectComplete().verify(VERIFY_BOUND);

        assertThat(this.source.subscriptions()).isEqualTo(1);
        assertThat(this.results.only("flux-quotes").status()).isEqualTo(ExecutionStatus.SUCCESS);
    }

    @Test
    void subscribersDemandReachesTheAttemptsSubscriptionAfterTheFirstElement() {
        this.source.script((subscription) -> Flux.just("a", "b", "c", "d"));

        StepVerifier.create(this.quotes.quotes(), 1)
            .expectNext("a")
            .then(() -> assertThat(this.source.requests()).containsExactly(1L))
            .thenRequest(2)
            .expectNext("b", "c")
            .then(() -> assertThat(this.source.requests()).containsExactly(1L, 2L))
            .thenRequest(1)
            .expectNext("d")
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(this.source.requests()).containsExactly(1L, 2L, 1L);
    }

    @Test
    void firstElementWaitsForTheSubscribersDemandAndNothingMoreIsRequested() {
        this.source.script((subscription) -> Flux.just("a", "b", "c", "d"));

        StepVerifier.create(this.quotes.quotes(), 0)
            .expectSubscription()
            .then(() -> assertThat(this.source.requests()).as("the attempt asks for its first element")
                .containsExactly(1L))
            .then(() -> assertThat(this.results.all()).as("the call ended with it").hasSize(1))
            .thenRequest(3)
            .expectNext("a", "b", "c")
            .then(() -> assertThat(this.source.requests()).containsExactly(1L, 2L))
            .thenCancel()
            .verify(VERIFY_BOUND);

        assertThat(this.source.cancellations()).isEqualTo(1);
    }

    @Test
    void everyAttemptSeesTheSubscribersContext() {
        List<String> tenants = new CopyOnWriteArrayList<>();
        this.source.script((subscription) -> Flux.deferContextual((context) -> {
            tenants.add(context.get("tenant"));
            return (subscription < 2) ? Flux.error(new IOException("feed down")) : Flux.just("a");
        }));

        StepVerifier.create(this.quotes.quotes().contextWrite(Context.of("tenant", "acme")))
            .then(() -> this.clock.advance(Duration.ofMillis(100)))
            .expectNext("a")
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(tenants).containsExactly("acme", "acme");
    }

    @Test
    void disposingTheSubscriptionMidBackoffStopsFurtherAttemptsAndGivesTheBulkheadPermitBack() {
        this.source.script((subscription) -> Flux.error(new IOException("feed down")));

        Disposable subscription = this.quotes.limited().subscribe((value) -> {
        }, (error) -> {
        });
        assertThat(this.source.subscriptions()).isEqualTo(1);
        assertThat(this.clock.pendingTasks()).as("the backoff").isEqualTo(1);
        subscription.dispose();
        this.clock.advance(Duration.ofSeconds(10));

        assertThat(this.source.subscriptions()).isEqualTo(1);
        assertThat(this.clock.pendingTasks()).isZero();
        assertThat(this.registry.findBulkhead("flux-bulkhead").orElseThrow().concurrentCalls()).isZero();
        ExecutionResult<?> result = this.results.only("flux-limited");
        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.error()).isInstanceOf(CancellationException.class);
        assertThat(result.attempts()).isEqualTo(1);
    }

    @Test
    void disposingTheSubscriptionBeforeTheFirstElementCancelsTheAttemptAndGivesThePermitBack() {
        Bulkhead bulkhead = this.registry.findBulkhead("flux-bulkhead").orElseThrow();
        this.source.script((subscription) -> Flux.never());

        Disposable running = this.quotes.limited().subscribe();
        assertThat(bulkhead.concurrentCalls()).isEqualTo(1);
        running.dispose();
        this.clock.advance(Duration.ofSeconds(10));

        assertThat(this.source.cancellations()).as("the attempt's subscription").isEqualTo(1);
        assertThat(this.source.subscriptions()).isEqualTo(1);
        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(this.results.only("flux-limited").error()).isInstanceOf(CancellationException.class);
    }

    @Test
    void disposingTheSubscriptionAfterTheFirstElementCancelsTheStreamAndStartsNothingMore() {
        this.source.script((subscription) -> Flux.concat(Flux.just("a"), Flux.never()));

        StepVerifier.create(this.quotes.limited()).expectNext("a").thenCancel().verify(VERIFY_BOUND);
        this.clock.advance(Duration.ofSeconds(10));

        assertThat(this.source.cancellations()).isEqualTo(1);
        assertThat(this.source.subscriptions()).isEqualTo(1);
        assertThat(this.clock.pendingTasks()).isZero();
        assertThat(this.results.only("flux-limited").status()).isEqualTo(ExecutionStatus.SUCCESS);
    }

    @Test
    void retryOnResultJudgesTheFirstElementAndTheRefusedStreamIsCancelledUnseen() {
        this.source
            .script((subscription) -> (subscription == 1) ? Flux.just("stale", "old") : Flux.just("fresh", "new"));

        StepVerifier.create(this.quotes.fresh())
            .then(() -> this.clock.advance(Duration.ofMillis(100)))
            .expectNext("fresh", "new")
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(this.source.subscriptions()).isEqualTo(2);
        assertThat(this.source.cancellations()).as("the refused attempt").isEqualTo(1);
        assertThat(this.results.only("flux-fresh").attempts()).isEqualTo(2);
    }

    @Test
    void refusedFirstElementGoesToTheSubscribersDiscardHookAndTheDeliveredOnesDoNot() {
        this.source
            .script((subscription) -> (subscription == 1) ? Flux.just("stale", "old") : Flux.just("fresh", "new"));
        List<Object> discarded = new CopyOnWriteArrayList<>();

        StepVerifier.create(this.quotes.fresh().doOnDiscard(String.class, discarded::add))
            .then(() -> this.clock.advance(Duration.ofMillis(100)))
            .expectNext("fresh", "new")
            .expectComplete()
            .verify(VERIFY_BOUND);

        assertThat(discarded).as("a pooled buffer would be released").containsExactly("stale");
    }

    @Test
    void firstElementStillRefusedAfterTheLastAttemptFailsTheCallAndItsStreamIsCancelled() {
        this.source.script((subscription) -> Flux.just("stale", "old"));

        StepVerifier.create(this.quotes.fresh())
            .then(() -> this.clock.advance(Duration.ofMillis(100)))
            .expectError(RejectedResultException.class)
            .verify(VERIFY_BOUND);

        assertThat(this.source.subscriptions()).isEqualTo(2);
        assertThat(this.source.cancellations()).isEqualTo(2);
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
        FluxQuotes fluxQuotes(ScriptedFlux source) {
            return new FluxQuotes(source);
        }

    }

    /**
     * Methods returning the scripted {@code Flux}.
     */
    static class FluxQuotes {

        private final ScriptedFlux source;

        FluxQuotes(ScriptedFlux source) {
            this.source = source;
        }

        @Retryable(value = "flux-quotes", maxAttempts = 3, delay = "100ms", multiplier = 2)
        public Flux<String> quotes() {
            return this.source.invoked();
        }

        @Retryable(value = "flux-limited", maxAttempts = 3, delay = "1s", multiplier = 1)
        @dev.resilience.annotation.Bulkhead(value = "flux-bulkhead", maxConcurrentCalls = 1, maxWait = "0ms")
        public Flux<String> limited() {
            return this.source.invoked();
        }

        @Retryable(value = "flux-fresh", maxAttempts = 2, delay = "100ms", retryOnResult = "#result == 'stale'")
        public Flux<String> fresh() {
            return this.source.invoked();
        }

    }

}
