package dev.resilience.aop;

import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
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
 * {@code Flux} likewise ({@link FluxCalls}); a Kotlin {@code suspend} function goes as a
 * {@code Mono} does, Spring's proxy turning its invocation into a {@code Mono} and
 * awaiting the returned one in the caller's coroutine ({@link SuspendFunctions}).
 * Thread-safe.
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

    ResilientMethod(Method method, String description, ResiliencePipeline pipeline, ReturnKind returnKind,
            @Nullable IdempotencyKeyExpressions idempotencyKeys, IdempotencyScopeResolver scopes, CallObserver observer,
            @Nullable ChaosInstance chaos, boolean lastGood, CallContextCustomizer customizer) {
        this.method = method;
        this.lastGood = lastGood;
        this.customizer = customizer;
        this.description = description;
        this.pipeline = pipeline;
        this.returnKind = returnKind;
        this.idempotencyKeys = idempotencyKeys;
        this.scopes = scopes;
        this.observer = observer;
        this.chaos = chaos;
    }

    ResiliencePipeline pipeline() {
        return this.pipeline;
    }

    @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        if (this.returnKind.isMono()) {
            String scope = this.lastGood ? lastGoodScope() : "";
            return MonoCalls.of((subscriberContext) -> {
                CarriedContext caller = this.observer.capture(subscriberContext);
                return carriedHere(caller, () -> subscribed(invocation, scope, subscriberContext, caller));
            });
        }
        if (this.returnKind == ReturnKind.FLUX) {
            return FluxCalls.of((call) -> {
                CarriedContext caller = this.observer.capture(FluxCalls.subscriberContextOf(call));
                return carriedHere(caller, () -> subscribed(invocation, "", call, caller));
            });
        }
        CallObserver.Call observation = this.observer.start(this.pipeline.name());
        try {
            CallContext context = context(invocation, observation.listener());
            if (this.returnKind == ReturnKind.COMPLETION_STAGE) {
                CallContext carrying = carrying(context, observation);
                Supplier<CompletionStage<@Nullable Object>> attempt = ChaosInstance.aroundStage(this.chaos,
                        this.pipeline, carrying.carried(), stageAttempt(invocation, ResilientMethod::asStage));
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
     * the subscriber's context. Runs with the caller's context in place, so that the
     * call's observation is a child of the one the subscriber's context holds.
     * @param scope the caller's scope of last good values, resolved on the thread that
     * called the proxy
     * @param caller the caller's context, captured from the subscriber's
     */
    private CompletableFuture<@Nullable Object> subscribed(MethodInvocation invocation, String scope,
            Object subscriberContext, CarriedContext caller) {
        CallObserver.Call observation = this.observer.start(this.pipeline.name());
        try {
            Object[] arguments = invocation.getArguments();
            MethodArguments passed = (this.returnKind == ReturnKind.SUSPEND)
                    ? MethodArguments.ofSuspending(this.method, arguments, subscriberContext)
                    : new MethodArguments(this.method, arguments, subscriberContext);
            CallContext context = this.customizer
                .customize(new CallContext(this.description, invocation.getThis(), passed, null, "",
                        observation.listener(), scope))
                .withCarried(observation.carried(caller));
            String what = "Method '" + this.method.getName() + "'";
            Supplier<CompletionStage<@Nullable Object>> attempt = ChaosInstance.aroundStage(this.chaos, this.pipeline,
                    context.carried(),
                    stageAttempt(invocation, (returned) -> subscription(returned, subscriberContext, what)));
            return valueOf(observation.scoped(() -> this.pipeline.executeAsync(context, attempt)).get(), observation);
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
    private CompletableFuture<@Nullable Object> subscription(@Nullable Object returned, Object subscriberContext,
            String what) {
        return (this.returnKind == ReturnKind.FLUX) ? FluxCalls.subscribe(returned, subscriberContext, what)
                : MonoCalls.subscribe(returned, subscriberContext, what);
    }

    private CallContext context(MethodInvocation invocation, ExecutionListener listener) {
        Object[] arguments = invocation.getArguments();
        Object key = null;
        String fingerprint = "";
        String scope = "";
        if (this.idempotencyKeys != null) {
            try {
                key = this.idempotencyKeys.key(arguments);
                fingerprint = this.idempotencyKeys.fingerprint(arguments);
                scope = scope();
            }
            catch (IdempotencyKeyException ex) {
                key = ex;
            }
        }
        else if (this.lastGood) {
            scope = lastGoodScope();
        }
        return this.customizer.customize(new CallContext(this.description, invocation.getThis(),
                new MethodArguments(this.method, arguments), key, fingerprint, listener, scope));
    }

    /**
     * Returns the caller's scope for a call's last good value; a resolver that throws
     * leaves the call without one, which keeps and is served nothing.
     */
    private String lastGoodScope() {
        try {
            String scope = this.scopes.resolveScope();
            return (scope != null) ? scope : "";
        }
        catch (RuntimeException ex) {
            return LastGoodKeys.UNRESOLVED_SCOPE;
        }
    }

    private String scope() {
        try {
            String scope = this.scopes.resolveScope();
            return (scope != null) ? scope : "";
        }
        catch (RuntimeException ex) {
            throw new IdempotencyKeyException("Idempotency key of " + this.description
                    + " cannot be worked out: its scope resolver threw " + ex.getClass().getSimpleName());
        }
    }

    private static Callable<@Nullable Object> attempt(MethodInvocation invocation) {
        Supplier<MethodInvocation> attempts = attempts(invocation);
        return () -> proceed(attempts.get());
    }

    private static Callable<@Nullable Object> envelopeAttempt(MethodInvocation invocation) {
        Supplier<MethodInvocation> attempts = attempts(invocation);
        return () -> {
            Object returned = proceed(attempts.get());
            return (returned instanceof ExecutionResult<?> result) ? result.getOrThrow() : null;
        };
    }

    /**
     * Returns the attempts of an asynchronous method.
     * @param asStage the stage of what the method returned
     */
    private static Supplier<CompletionStage<@Nullable Object>> stageAttempt(MethodInvocation invocation,
            Function<@Nullable Object, CompletionStage<@Nullable Object>> asStage) {
        Supplier<MethodInvocation> attempts = attempts(invocation);
        return () -> {
            try {
                return asStage.apply(proceed(attempts.get()));
            }
            catch (RuntimeException | Error ex) {
                throw ex;
            }
            catch (Exception ex) {
                throw new CompletionException(ex);
            }
        };
    }

    @SuppressWarnings("unchecked")
    private static CompletionStage<@Nullable Object> asStage(@Nullable Object returned) {
        return (CompletionStage<@Nullable Object>) returned;
    }

    /**
     * Returns the invocations of successive attempts: each a copy of the untouched
     * original, which is never proceeded itself.
     */
    private static Supplier<MethodInvocation> attempts(MethodInvocation invocation) {
        if (invocation instanceof ProxyMethodInvocation proxyInvocation) {
            return proxyInvocation::invocableClone;
        }
        return () -> invocation;
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
