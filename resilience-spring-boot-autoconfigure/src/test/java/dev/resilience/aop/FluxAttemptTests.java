package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
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
    void secondSubscriberIsRefused() {
        FluxAttempt attempt = new FluxAttempt(Context.empty());
        Flux.just("a").subscribe(attempt);
        Flux.from(attempt).subscribe();

        StepVerifier.create(Flux.from(attempt)).expectError(IllegalStateException.class).verify(VERIFY_BOUND);
    }

}
