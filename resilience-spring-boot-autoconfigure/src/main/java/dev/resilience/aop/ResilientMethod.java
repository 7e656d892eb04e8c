package dev.resilience.aop;

import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import dev.resilience.chaos.ChaosInstance;
import dev.resilience.core.CallContext;
import dev.resilience.core.CarriedContext;
import dev.resilience.core.ExecutionListener;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.idempotency.IdempotencyKeyException;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.aop.interceptor.ExposeInvocationInterceptor;

/**
 * One annotated method compiled at startup: its pipeline, how it returns, how its
 * idempotency key is found. Invoking it runs each attempt through a fresh copy of the
 * remaining interceptor chain, so that inner advice such as a transaction applies to
 * every attempt. A method returning {@code Mono} returns at once a {@code Mono} each of
 * whose subscriptions is a call ({@link MonoCalls}), and one returning {@code Flux} a
 * {@code Flux} likewise ({@link FluxCalls}), or a Kotlin {@code Flow} made of it
 * ({@link FlowCalls}); a Kotlin {@code suspend} function goes as a {@code Mono} does,
 * Spring's proxy turning its invocation into a {@code Mono} and awaiting the returned one
 * in the caller's coroutine ({@link SuspendFunctions}), or, when it returns a
 * {@code Flow}, as a {@code Flux} does. Thread-safe.
 */
final class ResilientMethod {

    private final Method method;

    private final String description;

    private final ResiliencePipeline pipeline;

    private final ReturnKind returnKind;

    private final @Nullable IdempotencyKeyExpressions idempotencyKeys;

    private final IdempotencyScopeResolver scopes;

    private final CallObserver observer;

    private final @Nullable ChaosInstance chaos;

    private final boolean lastGood;

    private final CallContextCustomizer customizer;

    private final @Nullable ReactiveIdempotencyScopeResolver subscriberScopes;

    private final FirstStep firstStep;

    private final String publisherMethod;

    private final boolean executionResults;

    /**
     * Creates the compiled method.
     * @param subscriberScopes the scopes of the subscriptions to a method returning
     * {@code Mono}, or {@code null} when its calls have none
     * @param storesMayBlock whether a store of the pipeline may block, so that a call of
     * a method returning {@code Mono} or {@code Flux} subscribed on a thread that must
     * not block (one Reactor marks non-blocking, a worker of Kotlin's coroutine
     * scheduler, kotlinx's timer thread), and every call of a {@code suspend} function or
     * a {@code Flow}, starts on the pipeline's executor ({@link FirstStep})
     */
    ResilientMethod(Method method, String description, ResiliencePipeline pipeline, ReturnKind returnKind,
            @Nullable IdempotencyKeyExpressions idempotencyKeys, IdempotencyScopeResolver scopes, CallObserver observer,
            @Nullable ChaosInstance chaos, boolean lastGood, CallContextCustomizer customizer,
            @Nullable ReactiveIdempotencyScopeResolver subscriberScopes, boolean storesMayBlock) {
        this.method = method;
        this.subscriberScopes = subscriberScopes;
        this.firstStep = FirstStep.of(returnKind, storesMayBlock);
        this.lastGood = lastGood;
        this.customizer = customizer;
        this.description = description;
        this.pipeline = pipeline;
        this.returnKind = returnKind;
        this.idempotencyKeys = idempotencyKeys;
        this.scopes = scopes;
        this.observer = observer;
        this.chaos = chaos;
        this.publisherMethod = "Method '" + method.getName() + "'";
        this.executionResults = ReturnKind.emitsExecutionResult(method);
    }

    ResiliencePipeline pipeline() {
        return this.pipeline;
    }

    @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        if (this.returnKind.isMono()) {
            return MonoCalls.of(this.observer, this.pipeline.name(), this.executionResults, this.subscriberScopes,
                    this.firstStep, (subscriberContext, scope, observation, caller, onExecutor) -> execution(invocation,
                            scope, subscriberContext, observation, caller, onExecutor));
        }
        if (this.returnKind.isFlux()) {
            Object calls = FluxCalls.of(this.firstStep, (call, onExecutor) -> {
                CarriedContext caller = this.observer
                    .capture(((MethodArguments.PublisherCall) call).subscriberContext());
                return carriedHere(caller, () -> fluxCall(invocation, call, caller, onExecutor));
            });
            return (this.returnKind == ReturnKind.FLOW) ? FlowCalls.asFlow(calls) : calls;
        }
        CallObserver.Call observation = this.observer.start(this.pipeline.name());
        try {
            CallContext context = context(invocation, observation.listener(), null, this::callerOnThread);
            if (this.returnKind == ReturnKind.COMPLETION_STAGE) {
                CallContext carrying = carrying(context, observation);
                Supplier<CompletionStage<@Nullable Object>> attempt = ChaosInstance.aroundStage(this.chaos,
                        this.pipeline, carrying.carried(), new StageAttempts(invocation, false, null));
                return valueOf(observation.scoped(() -> this.pipeline.executeAsync(carrying, attempt)).get(),
                        observation);
            }
            CallContext called = (this.pipeline.hedging() != null) ? carrying(context, observation) : context;
            Callable<@Nullable Object> attempt = ChaosInstance.around(this.chaos, this.pipeline,
                    (this.returnKind == ReturnKind.EXECUTION_RESULT) ? envelopeAttempt(invocation)
                            : attempt(invocation));
            ExecutionResult<@Nullable Object> result = observation
                .stop(observation.scoped(() -> this.pipeline.execute(called, attempt)).get());
            return (this.returnKind == ReturnKind.EXECUTION_RESULT) ? result : result.getOrThrow();
        }
        catch (RuntimeException | Error ex) {
            observation.fail(ex);
            throw ex;
        }
    }

    /**
     * Starts the call of one subscription to the {@code Mono} or {@code Flux} the proxy
     * returned: each attempt subscribes afresh to the publisher the method returns, with
     * the subscriber's context and, for a {@code Mono}, the call's observation in it.
     * Runs with the caller's context in place, so that the call's observation is a child
     * of the one the subscriber's context holds.
     * @param scope the caller's scope, resolved from the subscriber's context
     * @param observation the call's observation, which the caller stops when the call
     * ends
     * @param caller the caller's context, captured from the subscriber's
     * @param onExecutor whether the first step runs on the pipeline's executor
     */
    private CompletableFuture<ExecutionResult<@Nullable Object>> execution(MethodInvocation invocation,
            CallerScope scope, Object subscriberContext, CallObserver.Call observation, CarriedContext caller,
            boolean onExecutor) {
        Object observed = (subscriberContext instanceof MethodArguments.PublisherCall call)
                ? call.observedBy(observation.observation())
                : MonoCalls.observedIn(subscriberContext, observation.observation());
        CallContext context = context(invocation, observation.listener(), observed, () -> scope)
            .withCarried(observation.carried(caller));
        Supplier<CompletionStage<@Nullable Object>> attempt = ChaosInstance.aroundStage(this.chaos, this.pipeline,
                context.carried(), new StageAttempts(invocation, true, observed));
        if (observation.observation() == null) {
            return started(context, attempt, onExecutor);
        }
        return observation.scoped(() -> started(context, attempt, onExecutor)).get();
    }

    private CompletableFuture<ExecutionResult<@Nullable Object>> started(CallContext context,
            Supplier<CompletionStage<@Nullable Object>> attempt, boolean onExecutor) {
        return onExecutor ? this.pipeline.executeAsyncOnExecutor(context, attempt)
                : this.pipeline.executeAsync(context, attempt);
    }

    /**
     * Starts the call of one subscription to the {@code Flux} the proxy returned, with
     * its own observation.
     * @param call the subscription's call ({@link FluxCalls})
     * @param caller the caller's context, captured from the subscriber's
     * @param onExecutor whether the first step runs on the pipeline's executor
     */
    private CompletableFuture<@Nullable Object> fluxCall(MethodInvocation invocation, Object call,
            CarriedContext caller, boolean onExecutor) {
        CallObserver.Call observation = this.observer.start(this.pipeline.name());
        try {
            return valueOf(execution(invocation, CallerScope.NONE, call, observation, caller, onExecutor), observation);
        }
        catch (RuntimeException | Error ex) {
            observation.fail(ex);
            throw ex;
        }
    }

    /**
     * Returns the context of a call made by a thread, carrying the caller's context and
     * the call's observation to the threads that run its later steps.
     */
    private CallContext carrying(CallContext context, CallObserver.Call observation) {
        return context.withCarried(observation.carried(this.observer.capture(null)));
    }

    /**
     * Starts a call on this thread with the caller's context in place, as its later steps
     * run elsewhere: the subscriber's Reactor context restored as thread-local values.
     */
    private static <T> T carriedHere(CarriedContext carried, Supplier<T> start) {
        if (carried == CarriedContext.NONE) {
            return start.get();
        }
        List<T> started = new ArrayList<>(1);
        carried.around(() -> started.add(start.get())).run();
        return started.get(0);
    }

    /**
     * Subscribes to the publisher an attempt returned: a {@code Flux}'s stage ends at its
     * first signal ({@link FluxCalls}), a {@code Mono}'s at its value.
     * @param subscriberContext the subscriber's context, or for a {@code Flux} the call
     * of the subscription
     */
    private CompletableFuture<@Nullable Object> subscription(@Nullable Object returned, Object subscriberContext) {
        if (this.returnKind.isFlux()) {
            Object publisher = (this.returnKind == ReturnKind.FLOW)
                    ? FlowCalls.asPublisher(returned, this.publisherMethod) : returned;
            return FluxCalls.subscribe(publisher, subscriberContext, this.publisherMethod);
        }
        return MonoCalls.subscribe(returned, subscriberContext, this.publisherMethod, this.executionResults);
    }

    /**
     * Returns the context of a call.
     * @param subscriberContext the Reactor context of the subscriber of a call of a
     * method returning {@code Mono} (for {@code Flux}, its call), or {@code null} for any
     * other call
     * @param callers gives the caller's scope, asked only when the call needs it
     */
    private CallContext context(MethodInvocation invocation, ExecutionListener listener,
            @Nullable Object subscriberContext, Supplier<CallerScope> callers) {
        Object[] arguments = invocation.getArguments();
        Object key = null;
        String fingerprint = "";
        String scope = "";
        if (this.idempotencyKeys != null) {
            try {
                key = this.idempotencyKeys.key(arguments);
                fingerprint = this.idempotencyKeys.fingerprint(arguments);
                scope = callers.get().idempotencyScope(this.description);
            }
            catch (IdempotencyKeyException ex) {
                key = ex;
            }
        }
        else if (this.lastGood) {
            scope = callers.get().lastGoodScope();
        }
        MethodArguments passed = (this.returnKind == ReturnKind.SUSPEND || this.returnKind == ReturnKind.SUSPEND_FLOW)
                ? MethodArguments.ofSuspending(this.method, arguments, subscriberContext)
                : new MethodArguments(this.method, arguments, subscriberContext);
        return this.customizer.customize(
                new CallContext(this.description, invocation.getThis(), passed, key, fingerprint, listener, scope));
    }

    /**
     * Returns the caller's scope as the thread-bound resolver answers it on this thread.
     */
    private CallerScope callerOnThread() {
        return CallerScope.resolve(this.scopes);
    }

    private static Callable<@Nullable Object> attempt(MethodInvocation invocation) {
        return () -> proceed(nextAttempt(invocation));
    }

    private static Callable<@Nullable Object> envelopeAttempt(MethodInvocation invocation) {
        return () -> {
            Object returned = proceed(nextAttempt(invocation));
            return (returned instanceof ExecutionResult<?> result) ? result.getOrThrow() : null;
        };
    }

    /**
     * Returns the invocation of the next attempt: a copy of the untouched original, which
     * is never proceeded itself.
     */
    private static MethodInvocation nextAttempt(MethodInvocation invocation) {
        return (invocation instanceof ProxyMethodInvocation proxyInvocation) ? proxyInvocation.invocableClone()
                : invocation;
    }

    /**
     * Proceeds with one attempt's invocation, exposed to the advice inside ours
     * ({@link ExposeInvocationInterceptor}) while it runs: an attempt made on another
     * thread, or when a {@code Mono} is subscribed to after the proxy has returned, is
     * outside the call that exposed the original, and an AspectJ advice reading its join
     * point would fail.
     */
    private static @Nullable Object proceed(MethodInvocation invocation) throws Exception {
        try {
            return ExposeInvocationInterceptor.INSTANCE.invoke(invocation);
        }
        catch (Exception | Error ex) {
            throw ex;
        }
        catch (Throwable ex) {
            throw new UndeclaredThrowableException(ex);
        }
    }

    /**
     * The attempts of one call of an asynchronous method: each proceeds with a copy of
     * the invocation and takes the stage of what the method returned, or of its
     * subscription for a method returning a publisher.
     */
    private final class StageAttempts implements Supplier<CompletionStage<@Nullable Object>> {

        private final MethodInvocation invocation;

        private final boolean publisher;

        private final @Nullable Object subscriberContext;

        /**
         * Creates the attempts of one call.
         * @param publisher whether the method returns a {@code Mono}, a {@code Flux} or a
         * {@code Flow}, rather than a {@code CompletionStage}
         * @param subscriberContext the context each subscription carries
         * ({@link #subscription}); {@code null} for a {@code CompletionStage}
         */
        StageAttempts(MethodInvocation invocation, boolean publisher, @Nullable Object subscriberContext) {
            this.invocation = invocation;
            this.publisher = publisher;
            this.subscriberContext = subscriberContext;
        }

        @Override
        @SuppressWarnings("unchecked")
        public CompletionStage<@Nullable Object> get() {
            Object returned;
            try {
                returned = proceed(nextAttempt(this.invocation));
            }
            catch (RuntimeException | Error ex) {
                throw ex;
            }
            catch (Exception ex) {
                throw new CompletionException(ex);
            }
            return this.publisher ? subscription(returned, Objects.requireNonNull(this.subscriberContext))
                    : (CompletionStage<@Nullable Object>) returned;
        }

    }

    /**
     * Returns the future the caller gets: it completes with the call's value or final
     * error, and cancelling it cancels the call. The observation stops when the call
     * ends, however.
     */
    private static CompletableFuture<@Nullable Object> valueOf(
            CompletableFuture<ExecutionResult<@Nullable Object>> execution, CallObserver.Call observation) {
        CompletableFuture<@Nullable Object> value = new CompletableFuture<>();
        execution.whenComplete((result, failure) -> {
            if (failure != null) {
                observation.fail(failure);
                value.completeExceptionally(failure);
            }
            else {
                observation.stop(result);
                if (result.isSuccess()) {
                    value.complete(result.value());
                }
                else {
                    value.completeExceptionally(result.error());
                }
            }
        });
        value.whenComplete((result, failure) -> execution.cancel(false));
        return value;
    }

}
