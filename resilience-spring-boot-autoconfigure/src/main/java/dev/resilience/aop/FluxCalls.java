package dev.resilience.aop;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.util.context.Context;

/**
 * The two ends where a Reactor {@link Flux} meets the engine's asynchronous path
 * ({@code docs/design/reactive.md}): each subscription to the returned {@code Flux} is
 * one call, and each attempt, or fallback, is one subscription to the {@code Flux} it
 * returned ({@link FluxCall}), whose stage ends at its first signal. The call's
 * subscriber then gets the rest of the attempt that ended the call: so an error after the
 * first element passes through, never retried, and no element is seen twice. With
 * {@link FluxCall} and {@link FluxAttempt}, the only classes of the method interceptor
 * that name Reactor's {@code Flux}: they are loaded when a method returning {@code Flux}
 * is called, never otherwise, so Reactor stays optional.
 */
final class FluxCalls {

    private FluxCalls() {
    }

    /**
     * Returns the {@code Flux} the caller gets: each subscription starts one call; when
     * the call ends with an element, the subscriber gets the stream of the attempt (or
     * fallback) that emitted it, from that element on; when it ends empty, an empty
     * stream; when it fails, its final error. Cancelling the subscription cancels the
     * call, or the stream once the call has ended.
     * @param firstStep where the call's first step runs: where the {@code Flux} is
     * subscribed, or on the pipeline's executor, as a {@code Mono}'s ({@link MonoCalls})
     * @param call starts one call of a subscription, given its {@link FluxCall} and
     * whether its first step runs on the executor, and returns the future of its first
     * element, which cancelling stops
     * @return the cold {@code Flux} of the call, typed {@code Object} so that no caller's
     * signature names Reactor
     */
    static Object of(FirstStep firstStep, BiFunction<Object, Boolean, CompletableFuture<@Nullable Object>> call) {
        return Flux.deferContextual((context) -> {
            FluxCall subscription = new FluxCall(Context.of(context));
            return CallStarts
                .onFirstRequest(() -> ended(call.apply(subscription, MonoCalls.onExecutor(firstStep)), subscription))
                .flatMapMany((ended) -> subscription.rest())
                .doFinally((signal) -> subscription.cancel());
        });
    }

    /**
     * Returns the future of the call's end, which holds the call rather than its first
     * element: a subscription cancelled as the call ends leaves the element to the
     * attempt that holds it, which discards it once, and never to Reactor's {@code Mono}
     * as well. Cancelling it cancels the call.
     */
    private static CompletableFuture<@Nullable Object> ended(CompletableFuture<@Nullable Object> first, FluxCall call) {
        CompletableFuture<@Nullable Object> ended = new CompletableFuture<>();
        first.whenComplete((value, failure) -> {
            if (failure != null) {
                ended.completeExceptionally(failure);
            }
            else {
                ended.complete((value != null) ? call : null);
            }
        });
        ended.whenComplete((value, failure) -> {
            if (ended.isCancelled()) {
                first.cancel(false);
            }
        });
        return ended;
    }

    /**
     * Subscribes to the {@code Flux} an attempt returned.
     * @param returned what the method returned
     * @param call the call of the subscription ({@link FluxCall})
     * @param what the method, for the error of a {@code null} {@code Flux}
     * @return the stage of its first element, completed with {@code null} when it
     * completes empty; cancelling it cancels the subscription
     * @throws NullPointerException when the method returned {@code null}
     */
    static CompletableFuture<@Nullable Object> subscribe(@Nullable Object returned, @Nullable Object call,
            String what) {
        if (returned == null) {
            throw new NullPointerException(what + " returned null instead of a Flux");
        }
        return ((FluxCall) call).subscribe((Publisher<?>) returned);
    }

    /**
     * Subscribes to what a fallback of a method returning {@code Flux} returned, as to an
     * attempt: a {@code Flux} as it is, a plain value as a {@code Flux} of it, and, when
     * the fallback was declared to return elements, an {@link Iterable} as a {@code Flux}
     * of its elements; {@code null} as an empty {@code Flux}.
     * @param value what the fallback returned
     * @param declaredFlux whether the fallback was declared to return a {@code Flux}, so
     * that {@code null} is its failure
     * @param elements whether a plain value is an {@link Iterable} of the elements
     * @param call the call of the subscription ({@link FluxCall})
     * @param what the fallback, for the error of a {@code null} {@code Flux}
     * @return the stage of its first element
     * @throws NullPointerException when a fallback declared to return a {@code Flux}
     * returned {@code null}
     */
    static CompletableFuture<@Nullable Object> fallback(@Nullable Object value, boolean declaredFlux, boolean elements,
            @Nullable Object call, String what) {
        if (declaredFlux || value instanceof Flux<?>) {
            return subscribe(value, call, what);
        }
        Publisher<?> publisher;
        if (value == null) {
            publisher = Flux.empty();
        }
        else if (elements) {
            publisher = Flux.fromIterable((Iterable<?>) value);
        }
        else {
            publisher = Flux.just(value);
        }
        return ((FluxCall) call).subscribe(publisher);
    }

}
