package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Operators;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;
import reactor.util.context.Context;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One attempt's subscription to a {@code Flux}: its first signal completes its stage, and
 * the rest reaches its one subscriber in order, at the subscriber's demand, whether the
 * upstream ended before the subscriber came or emits on another thread.
 */
class FluxAttemptTests {

    private static final Duration VERIFY_BOUND = Duration.ofSeconds(10);

    private Subscription subscription;

    @Test
    void firstElementCompletesTheStageAndAskedForNothingMore() {
        AtomicInteger requested = new AtomicInteger();
        FluxAttempt attempt = new FluxAttempt(Context.empty());

        Flux.range(1, 5).doOnRequest((n) -> requested.addAndGet((int) n)).subscribe(attempt);

        assertThat(attempt.firstSignal()).isCompletedWithValue(1);
        assertThat(requested).hasValue(1);
    }

    @Test
    void completionBeforeAnyElementCompletesTheStageEmpty() {
        FluxAttempt attempt = new FluxAttempt(Context.empty());

        Flux.empty().subscribe(attempt);

        assertThat(attempt.firstSignal()).isCompletedWithValue(null);
    }

    @Test
    void errorBeforeAnyElementFailsTheStage() {
        FluxAttempt attempt = new FluxAttempt(Context.empty());

        Flux.error(new IOException("down")).subscribe(attempt);

        assertThat(attempt.firstSignal()).isCompletedExceptionally();
    }

    @Test
    void endThatCameBeforeTheSubscriberFollowsTheFirstElementOnceAskedFor() {
        FluxAttempt completed = new FluxAttempt(Context.empty());
        FluxAttempt failed = new FluxAttempt(Context.empty());
        Flux.just("a").subscribe(completed);
        Flux.concat(Flux.just("a"), Flux.error(new IOException("cut"))).subscribe(failed);

        StepVerifier.create(Flux.from(completed), 0)
            .expectSubscription()
            .thenRequest(1)
            .expectNext("a")
            .expectComplete()
            .verify(VERIFY_BOUND);
        StepVerifier.create(Flux.from(failed), 1).expectNext("a").expectErrorMessage("cut").verify(VERIFY_BOUND);
    }

    @Test
    void cancellingTheStageCancelsTheSubscription() {
        AtomicInteger cancellations = new AtomicInteger();
        FluxAttempt attempt = new FluxAttempt(Context.empty());
        Flux.never().doOnCancel(cancellations::incrementAndGet).subscribe(attempt);

        attempt.firstSignal().cancel(false);

        assertThat(cancellations).hasValue(1);
    }

    @Test
    void subscriberContextIsTheSubscriptionsContext() {
        FluxAttempt attempt = new FluxAttempt(Context.of("tenant", "acme"));

        Flux.deferContextual((context) -> Flux.just(context.<String>get("tenant"))).subscribe(attempt);

        assertThat(attempt.firstSignal()).isCompletedWithValue("acme");
    }

    @Test
    void elementsEmittedOnAnotherThreadReachTheSubscriberOnceEachInOrderAtItsDemand() {
        List<Integer> expected = IntStream.range(0, 20_000).boxed().toList();
        FluxAttempt attempt = new FluxAttempt(Context.empty());
        Flux.fromIterable(expected).publishOn(Schedulers.parallel(), 4).subscribe(attempt);
        attempt.firstSignal().join();

        StepVerifier.create(Flux.from(attempt).publishOn(Schedulers.single(), 3).collectList())
            .assertNext((received) -> assertThat(received).isEqualTo(expected))
            .expectComplete()
            .verify(VERIFY_BOUND);
    }

    @Test
    void requestForNoDemandFailsTheSubscriberOnceAndCancelsTheStream() {
        AtomicInteger cancellations = new AtomicInteger();
        FluxAttempt attempt = new FluxAttempt(Context.empty());
        Flux.range(1, 5).doOnCancel(cancellations::incrementAndGet).subscribe(attempt);
        List<String> signals = new CopyOnWriteArrayList<>();
        attempt.subscribe(new RecordingSubscriber(signals, 1));

        this.subscription.request(0);
        this.subscription.request(-1);
        this.subscription.request(3);

        assertThat(signals).containsExactly("1", "error Demand must be positive, not 0");
        assertThat(cancellations).hasValue(1);
    }

    @Test
    void requestForNoDemandAfterTheEndSignalsNothingMore() {
        FluxAttempt attempt = new FluxAttempt(Context.empty());
        Flux.just("a").subscribe(attempt);
        List<String> signals = new CopyOnWriteArrayList<>();
        attempt.subscribe(new RecordingSubscriber(signals, 5));

        this.subscription.request(0);

        assertThat(signals).containsExactly("a", "complete");
    }

    @Test
    void heldFirstElementIsDiscardedWhenTheAttemptIsCancelledBeforeTheSubscriberTookIt() {
        List<Object> discarded = new CopyOnWriteArrayList<>();
        FluxAttempt attempt = new FluxAttempt(Operators.enableOnDiscard(Context.empty(), discarded::add));
        Flux.just("refused", "unseen").subscribe(attempt);

        attempt.cancel();
        attempt.cancel();

        assertThat(attempt.firstSignal()).isCompletedWithValue("refused");
        assertThat(discarded).containsExactly("refused");
    }

    @Test
    void elementBeyondTheDemandOfASourceIgnoringBackpressureIsDiscarded() {
        List<Object> discarded = new CopyOnWriteArrayList<>();
        FluxAttempt attempt = new FluxAttempt(Operators.enableOnDiscard(Context.empty(), discarded::add));
        Flux.<String>push((emitter) -> emitter.onRequest((n) -> {
            emitter.next("first");
            emitter.next("beyond");
        }), FluxSink.OverflowStrategy.IGNORE).subscribe(attempt);

        attempt.cancel();

        assertThat(discarded).containsExactly("beyond", "first");
    }

    @Test
    void firstElementTakenBySubscriberIsNotDiscarded() {
        List<Object> discarded = new CopyOnWriteArrayList<>();
        FluxAttempt attempt = new FluxAttempt(Operators.enableOnDiscard(Context.empty(), discarded::add));
        Flux.just("a", "b").subscribe(attempt);

        StepVerifier.create(Flux.from(attempt), 1).expectNext("a").thenCancel().verify(VERIFY_BOUND);

        assertThat(discarded).isEmpty();
    }

    @Test
    void secondSubscriberIsRefused() {
        FluxAttempt attempt = new FluxAttempt(Context.empty());
        Flux.just("a").subscribe(attempt);
        Flux.from(attempt).subscribe();

        StepVerifier.create(Flux.from(attempt)).expectError(IllegalStateException.class).verify(VERIFY_BOUND);
    }

    @Test
    void errorAfterTheAttemptWasCancelledBeforeItsFirstElementGoesToTheDroppedErrorsHook() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        FluxAttempt attempt = new FluxAttempt(Context.empty());
        List<Subscriber<? super Object>> upstream = new CopyOnWriteArrayList<>();
        subscribeBy(upstream, attempt);

        attempt.cancel();
        Hooks.onErrorDropped(dropped::add);
        try {
            upstream.get(0).onError(new IOException("late"));
        }
        finally {
            Hooks.resetOnErrorDropped();
        }

        assertThat(attempt.firstSignal()).isCancelled();
        assertThat(dropped).singleElement().satisfies((error) -> assertThat(error).hasMessage("late"));
    }

    @Test
    void errorAfterTheSubscriberCancelledTheRestGoesToTheDroppedErrorsHook() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        FluxAttempt attempt = new FluxAttempt(Context.empty());
        List<Subscriber<? super Object>> upstream = new CopyOnWriteArrayList<>();
        subscribeBy(upstream, attempt);
        upstream.get(0).onNext("a");

        StepVerifier.create(Flux.from(attempt), 1).expectNext("a").thenCancel().verify(VERIFY_BOUND);
        Hooks.onErrorDropped(dropped::add);
        try {
            upstream.get(0).onError(new IOException("late"));
        }
        finally {
            Hooks.resetOnErrorDropped();
        }

        assertThat(dropped).singleElement().satisfies((error) -> assertThat(error).hasMessage("late"));
    }

    /**
     * Subscribes an attempt to a source that keeps signalling whatever the test sends,
     * cancelled or not, as a source that ignores a cancellation does.
     */
    private static void subscribeBy(List<Subscriber<? super Object>> upstream, FluxAttempt attempt) {
        Publisher<Object> source = (subscriber) -> {
            upstream.add(subscriber);
            subscriber.onSubscribe(new Subscription() {

                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                }

            });
        };
        source.subscribe(attempt);
    }

    /**
     * Records the signals it gets, and keeps its subscription for the test to request on.
     */
    private final class RecordingSubscriber implements Subscriber<Object> {

        private final List<String> signals;

        private final long demand;

        RecordingSubscriber(List<String> signals, long demand) {
            this.signals = signals;
            this.demand = demand;
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            FluxAttemptTests.this.subscription = subscription;
            subscription.request(this.demand);
        }

        @Override
        public void onNext(Object element) {
            this.signals.add(String.valueOf(element));
        }

        @Override
        public void onError(Throwable failure) {
            this.signals.add("error " + failure.getMessage());
        }

        @Override
        public void onComplete() {
            this.signals.add("complete");
        }

    }

}
