package dev.resilience.aop;

import java.util.concurrent.CompletableFuture;

import dev.resilience.core.CarriedContext;
import dev.resilience.core.ExecutionResult;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import dev.resilience.core.ExecutionStatus;
import org.jspecify.annotations.Nullable;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The two ends where a Reactor {@link Mono} meets the engine's asynchronous path
 * ({@code docs/design/reactive.md}): each subscription to the returned {@code Mono} is
 * one call, and each attempt, or fallback, is one subscription to the {@code Mono} the
 * method returned, carrying the subscriber's context, as a stage whose cancellation
 * cancels the subscription. With {@link MonoCallSubscription}, {@link MonoAttempt},
 * {@link FluxCalls} and {@link FluxAttempt}, the only classes that name Reactor's types:
 * it is loaded when a method returning {@code Mono} is called, never otherwise, so
 * Reactor stays optional. Each subscription resolves its caller's scope from the
 * subscriber's context first, when the call needs one. Each end is one object per
 * subscription, which is at once the subscriber, or the subscription, and the future the
 * engine reads.
 */
final class MonoCalls {

    private MonoCalls() {
    }

    /**
     * Returns the {@code Mono} the caller gets: each subscription starts one call, with
     * an observation of its own, and emits its value (nothing for {@code null}) or
     * signals its final error; cancelling the subscription cancels the call.
     * @param observer the observer of the calls
     * @param name the name of each call's observation
     * @param executionResults whether each subscription emits the call's complete
     * {@link ExecutionResult}, whatever its outcome, instead of its value or final error
     * @param scopes resolves the caller's scope of each subscription in the subscriber's
     * context before the call starts, or {@code null} when the call has no scope
     * @param firstStep where the call's first step runs: where the {@code Mono} is
     * subscribed, or on the pipeline's executor
     * @param call starts one call
     * @return the cold {@code Mono} of the call, typed {@code Object} so that no caller's
     * signature names Reactor
     */
    static Object of(CallObserver observer, String name, boolean executionResults,
            @Nullable ReactiveIdempotencyScopeResolver scopes, FirstStep firstStep, CallStart call) {
        if (scopes == null) {
            return new CallMono(observer, name, executionResults, CallerScope.NONE, firstStep, call);
        }
        return Mono.defer(() -> callerScope(scopes))
            .flatMap((scope) -> new CallMono(observer, name, executionResults, scope, firstStep, call));
    }

    /**
     * Tells whether the first step of a call subscribed on this thread runs on the
     * pipeline's executor.
     * @param firstStep where the first step of the method's calls runs
     * @return {@code true} to start the call on the executor
     */
    static boolean onExecutor(FirstStep firstStep) {
        return firstStep == FirstStep.ON_EXECUTOR
                || (firstStep == FirstStep.OFF_NON_BLOCKING_THREADS && onNonBlockingThread());
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
     * The class of the threads of {@code Dispatchers.Default} (and
     * {@code Dispatchers.IO}, which shares them).
     */
    private static final String COROUTINE_WORKER = "kotlinx.coroutines.scheduling.CoroutineScheduler$Worker";

    /**
     * The name of the timer thread of kotlinx.coroutines, on which a coroutine resumes
     * after {@code delay} on {@code Dispatchers.Unconfined}: a plain {@link Thread} with
     * that name, followed by the coroutine's name in the library's debug mode.
     */
    private static final String COROUTINE_TIMER = "kotlinx.coroutines.DefaultExecutor";

    /**
     * Tells whether this thread must not block: one Reactor marks non-blocking (a Netty
     * event loop, {@code Schedulers.parallel()}), a worker of Kotlin's coroutine
     * scheduler, where a coroutine awaits a {@code Mono} or collects a {@code Flux}
     * (those of {@code Dispatchers.IO}, which may block, cannot be told apart and hop as
     * well), or the timer thread of kotlinx.coroutines, which the delays of its default,
     * IO and unconfined dispatchers share.
     * @return {@code true} on such a thread
     */
    private static boolean onNonBlockingThread() {
        if (Schedulers.isInNonBlockingThread()) {
            return true;
        }
        Thread current = Thread.currentThread();
        return COROUTINE_WORKER.equals(current.getClass().getName()) || current.getName().startsWith(COROUTINE_TIMER);
    }

    /**
     * Subscribes to a {@code Mono} an attempt or a fallback returned.
     * @param returned what the method returned
     * @param subscriberContext the context of the call's subscriber, which the
     * subscription carries, or {@code null} for none
     * @param what the method, for the error of a {@code null} {@code Mono}
     * @param executionResults whether the {@code Mono} emits an {@link ExecutionResult}
     * whose value, or error, is the stage's
     * @return the stage of its first value, completed with {@code null} when it completes
     * empty; cancelling it cancels the subscription
     * @throws NullPointerException when the method returned {@code null}
     */
    static CompletableFuture<@Nullable Object> subscribe(@Nullable Object returned, @Nullable Object subscriberContext,
            String what, boolean executionResults) {
        if (returned == null) {
            throw new NullPointerException(what + " returned null instead of a Mono");
        }
        @SuppressWarnings("unchecked")
        Mono<@Nullable Object> mono = (Mono<@Nullable Object>) returned;
        Context context = (subscriberContext instanceof Context full) ? full
                : (subscriberContext instanceof ContextView view) ? Context.of(view) : Context.empty();
        MonoAttempt attempt = new MonoAttempt(context, executionResults);
        mono.subscribe(attempt);
        return attempt;
    }

    /**
     * Returns the context an attempt or a fallback of a call is subscribed with: the
     * subscriber's, with the call's observation under Micrometer's key, where
     * instrumentation that reads the Reactor context (the reactive HTTP client) finds the
     * parent of its own observations.
     * @param subscriberContext the context of the call's subscriber
     * @param observation the call's observation, or {@code null} when it has none
     * @return the context of the call's subscriptions
     */
    static Object observedIn(Object subscriberContext, @Nullable Object observation) {
        if (observation == null || !(subscriberContext instanceof ContextView context)) {
            return subscriberContext;
        }
        return Context.of(context).put(ObservationThreadLocalAccessor.KEY, observation);
    }

    /**
     * Tells whether a value is a {@code Mono}.
     * @param value a fallback's value
     * @return {@code true} for a {@code Mono}
     */
    static boolean isMono(@Nullable Object value) {
        return value instanceof Mono<?>;
    }

    /**
     * Starts one call of a subscription.
     */
    @FunctionalInterface
    interface CallStart {

        /**
         * Starts the call.
         * @param subscriberContext the Reactor context of the call's subscriber
         * @param scope the caller's scope, resolved from the subscriber's context
         * @param observation the call's observation, stopped when the call ends
         * @param caller the caller's context, captured from the subscriber's
         * @param onExecutor whether the call's first step runs on the pipeline's executor
         * ({@link dev.resilience.core.ResiliencePipeline#executeAsyncOnExecutor}) rather
         * than on this thread
         * @return the future of the call's account; cancelling it stops the call
         */
        CompletableFuture<ExecutionResult<@Nullable Object>> start(Object subscriberContext, CallerScope scope,
                CallObserver.Call observation, CarriedContext caller, boolean onExecutor);

    }

    /**
     * The {@code Mono} of a call: nothing runs at assembly, each subscription is a call.
     * When a store of the pipeline may block, a subscription on a thread that must not
     * block ({@link MonoCalls#onExecutor}), or any subscription of a {@code suspend}
     * function's call, has the call's first step run on the pipeline's executor
     * ({@link FirstStep}); when the executor refuses or drops it, the call ends with
     * status {@link ExecutionStatus#ERROR} and the refusal, as when it refuses a later
     * step.
     */
    private static final class CallMono extends Mono<@Nullable Object> {

        private final CallObserver observer;

        private final String name;

        private final boolean executionResults;

        private final CallerScope scope;

        private final CallStart call;

        private final FirstStep firstStep;

        CallMono(CallObserver observer, String name, boolean executionResults, CallerScope scope, FirstStep firstStep,
                CallStart call) {
            this.observer = observer;
            this.name = name;
            this.executionResults = executionResults;
            this.scope = scope;
            this.firstStep = firstStep;
            this.call = call;
        }

        @Override
        public void subscribe(CoreSubscriber<? super @Nullable Object> actual) {
            MonoCallSubscription subscription = new MonoCallSubscription(actual, this.executionResults);
            actual.onSubscribe(subscription);
            if (subscription.isCancelled()) {
                return;
            }
            boolean onExecutor = onExecutor(this.firstStep);
            Context context = actual.currentContext();
            CarriedContext caller = this.observer.capture(context);
            if (caller == CarriedContext.NONE) {
                start(subscription, context, caller, onExecutor);
            }
            else {
                caller.around(() -> start(subscription, context, caller, onExecutor)).run();
            }
        }

        private void start(MonoCallSubscription subscription, Context context, CarriedContext caller,
                boolean onExecutor) {
            subscription.start(this.observer.start(this.name), context, this.scope, caller, onExecutor, this.call);
        }

    }

}
