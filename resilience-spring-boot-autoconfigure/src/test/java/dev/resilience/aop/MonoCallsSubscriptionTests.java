package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.test.StepVerifier;
import reactor.util.context.Context;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two ends of {@link MonoCalls} alone, without a pipeline: the subscription to a
 * call's {@code Mono} and the subscriber of an attempt's. An error that comes after the
 * subscriber is gone goes to Reactor's hook of dropped errors, as Reactor's own operators
 * send it, unless it is the call's own cancellation.
 */
class MonoCallsSubscriptionTests {

    private final AtomicInteger calls = new AtomicInteger();

    private final CompletableFuture<ExecutionResult<Object>> execution = new CompletableFuture<>();

    private final List<Throwable> dropped = new CopyOnWriteArrayList<>();

    private final List<Throwable> signalled = new CopyOnWriteArrayList<>();

    @BeforeEach
    void hearDroppedErrors() {
        Hooks.onErrorDropped(this.dropped::add);
    }

    @AfterEach
    void resetTheHook() {
        Hooks.resetOnErrorDropped();
    }

    @SuppressWarnings("unchecked")
    private Mono<Object> call(boolean executionResults) {
        return (Mono<Object>) MonoCalls.of(new CallObserver(ObservationRegistry.NOOP), "quote", executionResults, null,
                FirstStep.HERE, (context, scope, observation, caller, onExecutor) -> {
                    this.calls.incrementAndGet();
                    return this.execution;
                });
    }

    /** A subscriber that breaks the rules: its {@code onNext} throws. */
    private static CoreSubscriber<Object> throwingOnNext(List<String> signals) {
        return throwingOnNext(signals, (value) -> new IllegalStateException("onNext of " + value + " failed"));
    }

    private static CoreSubscriber<Object> throwingOnNext(List<String> signals,
            Function<Object, ? extends Throwable> thrown) {
        return new CoreSubscriber<>() {

            @Override
            public void onSubscribe(Subscription subscription) {
                subscription.request(1);
            }

            @Override
            public void onNext(Object value) {
                signals.add("onNext " + value);
                Throwable failure = thrown.apply(value);
                if (failure instanceof Error error) {
                    throw error;
                }
                throw (RuntimeException) failure;
            }

            @Override
            public void onError(Throwable error) {
                signals.add("onError " + error.getMessage());
            }

            @Override
            public void onComplete() {
                signals.add("onComplete");
            }

        };
    }

    @Test
    void whatTheSubscriberThrowsForACallEndedAtOnceGoesToTheHookOfDroppedErrors() {
        this.execution.complete(ExecutionResult.success("ETH 3100"));
        List<String> signals = new CopyOnWriteArrayList<>();

        call(false).subscribe(throwingOnNext(signals));

        assertThat(signals).containsExactly("onNext ETH 3100");
        assertThat(this.dropped).singleElement()
            .satisfies((error) -> assertThat(error).hasMessage("onNext of ETH 3100 failed"));
    }

    @Test
    void whatTheSubscriberThrowsForACallEndedLaterGoesToTheHookOfDroppedErrors() {
        List<String> signals = new CopyOnWriteArrayList<>();
        call(false).subscribe(throwingOnNext(signals));

        this.execution.complete(ExecutionResult.success("ETH 3200"));

        assertThat(signals).containsExactly("onNext ETH 3200");
        assertThat(this.dropped).singleElement()
            .satisfies((error) -> assertThat(error).hasMessage("onNext of ETH 3200 failed"));
    }

    @Test
    void anErrorTheSubscriberThrowsGoesToTheHookOfDroppedErrorsToo() {
        this.execution.complete(ExecutionResult.success("ETH 3300"));
        List<String> signals = new CopyOnWriteArrayList<>();

        call(false).subscribe(throwingOnNext(signals, (value) -> new AssertionError("no " + value + " expected")));

        assertThat(signals).containsExactly("onNext ETH 3300");
        assertThat(this.dropped).singleElement()
            .satisfies(
                    (error) -> assertThat(error).isInstanceOf(AssertionError.class).hasMessage("no ETH 3300 expected"));
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
    void errorOfAnAttemptAfterItsSubscriptionWasCancelledGoesToTheDroppedErrorsHook() {
        AtomicReference<CoreSubscriber<? super String>> subscriber = new AtomicReference<>();
        AtomicInteger cancellations = new AtomicInteger();
        Mono<String> lateFailing = new Mono<>() {

            @Override
            public void subscribe(CoreSubscriber<? super String> actual) {
                subscriber.set(actual);
                actual.onSubscribe(new Subscription() {

                    @Override
                    public void request(long n) {
                    }

                    @Override
                    public void cancel() {
                        cancellations.incrementAndGet();
                    }

                });
            }

        };
        CompletableFuture<Object> attempt = MonoCalls.subscribe(lateFailing, Context.empty(), "quote", false);

        attempt.cancel(true);
        subscriber.get().onError(new IOException("late"));

        assertThat(cancellations).hasValue(1);
        assertThat(this.dropped).singleElement().satisfies((error) -> assertThat(error).hasMessage("late"));
    }

    @Test
    void valueOfAnAttemptAfterItsSubscriptionWasCancelledGoesToTheDiscardHook() {
        AtomicReference<CoreSubscriber<? super String>> subscriber = new AtomicReference<>();
        List<Object> discarded = new CopyOnWriteArrayList<>();
        Mono<String> lateValue = new Mono<>() {

            @Override
            public void subscribe(CoreSubscriber<? super String> actual) {
                subscriber.set(actual);
                actual.onSubscribe(Operators.emptySubscription());
            }

        };
        CompletableFuture<Object> attempt = MonoCalls.subscribe(lateValue,
                Operators.enableOnDiscard(Context.empty(), discarded::add), "quote", false);

        attempt.cancel(true);
        subscriber.get().onNext("late buffer");

        assertThat(discarded).containsExactly("late buffer");
    }

    @Test
    void errorOfACallWhoseSubscriberCancelledAsItEndedGoesToTheDroppedErrorsHook() {
        AtomicReference<Disposable> subscription = new AtomicReference<>();
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler<>() {

            @Override
            public void onStop(Observation.Context context) {
                subscription.get().dispose();
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }

        });
        @SuppressWarnings("unchecked")
        Mono<Object> call = (Mono<Object>) MonoCalls.of(new CallObserver(registry), "quote", false, null,
                FirstStep.HERE, (context, scope, observation, caller, onExecutor) -> this.execution);
        subscription.set(call.subscribe((value) -> {
        }, this.signalled::add));

        this.execution.complete(new ExecutionResult<>(ExecutionStatus.ERROR, null, new IOException("down"), 1,
                List.of(), Duration.ZERO, false, 0, false, Map.of()));

        assertThat(this.signalled).isEmpty();
        assertThat(this.dropped).singleElement().satisfies((error) -> assertThat(error).hasMessage("down"));
    }

    @Test
    void cancellationOfACallIsNoDroppedError() {
        call(false).subscribe().dispose();

        assertThat(this.execution).isCancelled();
        assertThat(this.dropped).isEmpty();
    }

    @Test
    void attemptOfExecutionResultsTakesTheirValue() {
        Mono<ExecutionResult<String>> emitted = Mono.just(ExecutionResult.success("ETH 3100"));

        assertThat(MonoCalls.subscribe(emitted, Context.empty(), "quote", true).join()).isEqualTo("ETH 3100");
    }

}
