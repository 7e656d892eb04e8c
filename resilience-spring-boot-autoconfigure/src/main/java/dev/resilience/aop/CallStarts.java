package dev.resilience.aop;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import reactor.core.publisher.Mono;

/**
 * Where a Reactor subscription starts a protected call: on the subscriber's first
 * request, never at the subscription itself, so that a subscriber that cancels inside
 * {@code onSubscribe} (as {@code take(0)} does) starts no call, sends no request and
 * records nothing. Reactor's {@code Mono.fromFuture(Supplier)} asks its supplier before
 * it signals {@code onSubscribe}, too early for that.
 */
public final class CallStarts {

    private CallStarts() {
    }

    /**
     * Returns the {@code Mono} of a call started on the first request: cancelling the
     * subscription afterwards cancels the call's future.
     * @param start starts the call and returns its future
     * @param <R> the type of the call's outcome
     * @return the cold {@code Mono} of the outcome
     */
    public static <R> Mono<R> onFirstRequest(Supplier<? extends CompletableFuture<R>> start) {
        // hidden, the value is not one whose flatMap Reactor resolves at the subscription
        return Mono.just(start).hide().flatMap((call) -> Mono.fromFuture(call.get(), false));
    }

}
