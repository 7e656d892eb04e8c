package dev.resilience.aop;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * The two ends where a Reactor {@link Mono} meets the engine's asynchronous path
 * ({@code docs/design/reactive.md}): each subscription to the returned {@code Mono} is
 * one call, and each attempt, or fallback, is one subscription to the {@code Mono} the
 * method returned, carrying the subscriber's context, as a stage whose cancellation
 * cancels the subscription. With {@link FluxCalls} and {@link FluxAttempt}, the only
 * classes that name Reactor's types: it is loaded when a method returning {@code Mono} is
 * called, never otherwise, so Reactor stays optional.
 */
final class MonoCalls {

    private MonoCalls() {
    }

    /**
     * Returns the {@code Mono} the caller gets: each subscription starts one call, whose
     * value it emits (nothing for {@code null}) or whose final error it signals;
     * cancelling the subscription cancels the call.
     * @param call starts one call with the subscriber's context and returns the future of
     * its value, which cancelling stops
     * @return the cold {@code Mono} of the call, typed {@code Object} so that no caller's
     * signature names Reactor
     */
    static Object of(Function<Object, CompletableFuture<@Nullable Object>> call) {
        return Mono.deferContextual((context) -> Mono.fromFuture(() -> call.apply(context), false));
    }

    /**
     * Subscribes to a {@code Mono} an attempt or a fallback returned.
     * @param returned what the method returned
     * @param subscriberContext the context of the call's subscriber, written into the
     * subscription, or {@code null} for none
     * @param what the method, for the error of a {@code null} {@code Mono}
     * @return the stage of its first value, completed with {@code null} when it completes
     * empty; cancelling it cancels the subscription
     * @throws NullPointerException when the method returned {@code null}
     */
    static CompletableFuture<@Nullable Object> subscribe(@Nullable Object returned, @Nullable Object subscriberContext,
            String what) {
        if (returned == null) {
            throw new NullPointerException(what + " returned null instead of a Mono");
        }
        @SuppressWarnings("unchecked")
        Mono<@Nullable Object> mono = (Mono<@Nullable Object>) returned;
        if (subscriberContext instanceof ContextView context && !context.isEmpty()) {
            mono = mono.contextWrite(context);
        }
        return mono.toFuture();
    }

    /**
     * Tells whether a value is a {@code Mono}.
     * @param value a fallback's value
     * @return {@code true} for a {@code Mono}
     */
    static boolean isMono(@Nullable Object value) {
        return value instanceof Mono<?>;
    }

}
