package dev.resilience.aop;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.util.context.Context;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two ends of {@link MonoCalls} alone, without a pipeline: the subscription to a
 * call's {@code Mono} and the subscriber of an attempt's.
 */
class MonoCallsSubscriptionTests {

    private final AtomicInteger calls = new AtomicInteger();

    private final CompletableFuture<ExecutionResult<Object>> execution = new CompletableFuture<>();

    @SuppressWarnings("unchecked")
    private Mono<Object> call(boolean executionResults) {
        return (Mono<Object>) MonoCalls.of(new CallObserver(ObservationRegistry.NOOP), "quote", executionResults, null,
                false, (context, scope, observation, caller, onExecutor) -> {
                    this.calls.incrementAndGet();
                    return this.execution;
                });
    }

    @Test
    void subscriberThatCancelsInOnSubscribeStartsNoCall() {
        call(false).subscribe(new BaseSubscriber<>() {

            @Override
            protected void hookOnSubscribe(Subscription subscription) {
                cancel();
            }

        });

        assertThat(this.calls).hasValue(0);
    }

    @Test
    void valueWaitsForTheSubscribersRequest() {
        this.execution.complete(ExecutionResult.success("ETH 3100"));

        StepVerifier.create(call(false), 0)
            .expectSubscription()
            .expectNoEvent(Duration.ZERO)
            .thenRequest(1)
            .expectNext("ETH 3100")
            .expectComplete()
            .verify();
        assertThat(this.calls).hasValue(1);
    }

    @Test
    void cancellingTheSubscriptionCancelsTheCall() {
        call(false).subscribe().dispose();

        assertThat(this.calls).hasValue(1);
        assertThat(this.execution).isCancelled();
    }

    @Test
    void executionResultsAreEmittedWhateverTheOutcome() {
        StepVerifier.create(call(true))
            .then(() -> this.execution.complete(new ExecutionResult<>(ExecutionStatus.ERROR, null,
                    new IllegalStateException("down"), 2, List.of(), Duration.ZERO, false, 0, false, Map.of())))
            .assertNext((result) -> assertThat(((ExecutionResult<?>) result).error()).hasMessage("down"))
            .expectComplete()
            .verify();
    }

    @Test
    void attemptCarriesTheSubscribersContextAndIsCancelledWithItsFuture() {
        AtomicInteger cancellations = new AtomicInteger();
        Mono<String> contextual = Mono.deferContextual((context) -> Mono.just(context.<String>get("tenant")));
        Mono<String> never = Mono.<String>never().doOnCancel(cancellations::incrementAndGet);

        assertThat(MonoCalls.subscribe(contextual, Context.of("tenant", "acme"), "quote", false).join())
            .isEqualTo("acme");
        CompletableFuture<Object> pending = MonoCalls.subscribe(never, Context.empty(), "quote", false);
        pending.cancel(true);

        assertThat(cancellations).hasValue(1);
    }

    @Test
    void attemptOfExecutionResultsTakesTheirValue() {
        Mono<ExecutionResult<String>> emitted = Mono.just(ExecutionResult.success("ETH 3100"));

        assertThat(MonoCalls.subscribe(emitted, Context.empty(), "quote", true).join()).isEqualTo("ETH 3100");
    }

}
