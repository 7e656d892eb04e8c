package dev.resilience.aop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.ContextView;

/**
 * The two ends where a Reactor {@link Mono} meets the engine's asynchronous path
 * ({@code docs/design/reactive.md}): each subscription to the returned {@code Mono} is
 * one call, and each attempt, or fallback, is one subscription to the {@code Mono} the
 * method returned, carrying the subscriber's context, as a stage whose cancellation
 * cancels the subscription. Each subscription resolves its caller's scope from the
 * subscriber's context first, when the call needs one. The only class of the interceptor
 * that calls Reactor: it is loaded when a method returning {@code Mono} is called, never
 * otherwise, so Reactor stays optional.
 */
final class MonoCalls {

    private MonoCalls() {
    }

    /**
     * Returns the {@code Mono} the caller gets: each subscription starts one call, whose
     * value it emits (nothing for {@code null}) or whose final error it signals;
     * cancelling the subscription cancels the call.
     * @param scopes resolves the caller's scope of each subscription in the subscriber's
     * context before the call starts, or {@code null} when the call has no scope
     * @param call starts one call with the subscriber's context and the caller's scope,
     * and returns the future of its value, which cancelling stops
     * @param offNonBlocking where the call starts instead when it would start on a thread
     * Reactor marks non-blocking, because a store of its pipeline may block; {@code null}
     * to start it wherever the subscription is
     * @return the cold {@code Mono} of the call, typed {@code Object} so that no caller's
     * signature names Reactor
     */
    static Object of(@Nullable ReactiveIdempotencyScopeResolver scopes,
            BiFunction<Object, CallerScope, CompletableFuture<@Nullable Object>> call,
            @Nullable Executor offNonBlocking) {
        if (scopes == null) {
            return Mono.deferContextual((context) -> started(call, context, CallerScope.NONE, offNonBlocking));
        }
        return Mono.deferContextual(
                (context) -> callerScope(scopes).flatMap((scope) -> started(call, context, scope, offNonBlocking)));
    }

    /**
     * Starts a call on this thread, or on the executor when this thread is one Reactor
     * marks non-blocking: the first step of a call claims its key and may read a last
     * good value, which a store outside the memory may block on.
     */
    private static Mono<@Nullable Object> started(
            BiFunction<Object, CallerScope, CompletableFuture<@Nullable Object>> call, ContextView context,
            CallerScope scope, @Nullable Executor offNonBlocking) {
        Mono<@Nullable Object> started = Mono.fromFuture(() -> call.apply(context, scope), false);
        if (offNonBlocking != null && Schedulers.isInNonBlockingThread()) {
            return started.subscribeOn(Schedulers.fromExecutor(offNonBlocking));
        }
        return started;
    }

    private static Mono<CallerScope> callerScope(ReactiveIdempotencyScopeResolver scopes) {
        Mono<String> resolved;
        try {
            resolved = scopes.resolveScope();
        }
        catch (RuntimeException ex) {
            return Mono.just(CallerScope.failed(ex));
        }
        if (resolved == null) {
            return Mono.just(CallerScope.failed(new NullPointerException(
                    scopes.getClass().getName() + " returned null instead of a Mono of the scope")));
        }
        return resolved.map(CallerScope::of)
            .defaultIfEmpty(CallerScope.NONE)
            .onErrorResume(Exception.class, (ex) -> Mono.just(CallerScope.failed(ex)));
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
