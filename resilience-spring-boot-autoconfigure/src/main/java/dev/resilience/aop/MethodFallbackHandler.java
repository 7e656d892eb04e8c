package dev.resilience.aop;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.FallbackHandler;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;

/**
 * A fallback method of the guarded bean, called with the guarded call's arguments and,
 * when it declares one, the failure. The {@code Mono} a fallback of a method returning
 * {@code Mono} returns is subscribed to, with the call's subscriber context, and its
 * value is the fallback's; a plain value is the fallback's as it is. What a fallback of a
 * method returning {@code Flux} or a Kotlin {@code Flow} returns is subscribed to as an
 * attempt is ({@link FluxCalls#fallback}), a {@code Flow} as a {@code Flux} of it
 * ({@link FlowCalls#fallback}). A {@code suspend} fallback of a {@code suspend} function
 * is invoked as Spring's proxy invokes the function, into a {@code Mono} run in the
 * caller's coroutine context, which is subscribed to in turn; a plain fallback of one
 * that does not return a {@code Mono} runs in a coroutine of that context too
 * ({@link SuspendFallbacks}).
 */
final class MethodFallbackHandler implements FallbackHandler {

    private final Method method;

    private final @Nullable Class<?> failureType;

    private final ReturnKind guardedKind;

    private final boolean returnsMono;

    private final boolean returnsFlux;

    private final boolean returnsFlow;

    private final boolean elements;

    private final boolean suspending;

    private final boolean executionResults;

    private final boolean inCallersCoroutine;

    /**
     * Creates the fallback of a guarded method.
     * @param method the fallback method
     * @param failureType the type of its trailing failure parameter, or {@code null} when
     * it declares none
     * @param guardedKind how the guarded method returns
     * @param elements whether the fallback of a method returning {@code Flux} or
     * {@code Flow} returns an {@link Iterable} of the elements rather than one element
     * @param executionResults whether the guarded method returns
     * {@code Mono<ExecutionResult<T>>}: the fallback's value is then the value or error
     * of the {@code ExecutionResult} it returns, or its {@code Mono} emits
     */
    MethodFallbackHandler(Method method, @Nullable Class<?> failureType, ReturnKind guardedKind, boolean elements,
            boolean executionResults) {
        this.method = method;
        this.failureType = failureType;
        this.guardedKind = guardedKind;
        this.suspending = guardedKind == ReturnKind.SUSPEND && ReturnKind.isSuspending(method);
        this.returnsMono = this.suspending || ReturnKind.MONO_TYPE.equals(method.getReturnType().getName());
        this.returnsFlux = ReturnKind.FLUX_TYPE.equals(method.getReturnType().getName());
        this.returnsFlow = guardedKind.isFlux() && guardedKind != ReturnKind.FLUX
                && FlowMethods.isFlow(method.getReturnType());
        this.inCallersCoroutine = guardedKind == ReturnKind.SUSPEND && !this.returnsMono;
        this.elements = elements;
        this.executionResults = executionResults;
    }

    @Override
    public String name() {
        return this.method.getName();
    }

    @Override
    public boolean appliesTo(Throwable error) {
        return this.failureType == null || this.failureType.isInstance(error);
    }

    @Override
    public @Nullable Object apply(Throwable error, CallContext call) throws Throwable {
        Object[] arguments = call.arguments().toArray();
        if (this.failureType != null) {
            Object[] withFailure = new Object[arguments.length + 1];
            System.arraycopy(arguments, 0, withFailure, 0, arguments.length);
            withFailure[arguments.length] = error;
            arguments = withFailure;
        }
        Object value;
        Object caller = this.inCallersCoroutine ? MethodArguments.continuationOf(call.arguments()) : null;
        if (this.suspending) {
            Object[] withContinuation = Arrays.copyOf(arguments, arguments.length + 1);
            withContinuation[arguments.length] = MethodArguments.continuationOf(call.arguments());
            value = AopUtils.invokeJoinpointUsingReflection(call.target(), this.method, withContinuation);
        }
        else if (caller != null) {
            value = SuspendFallbacks.inCallersContext(this.method, call.target(), arguments, caller);
        }
        else {
            try {
                value = this.method.invoke(call.target(), arguments);
            }
            catch (InvocationTargetException ex) {
                throw ex.getTargetException();
            }
        }
        if (this.guardedKind.isFlux()) {
            String what = "Fallback method '" + this.method.getName() + "'";
            Object stream = (this.guardedKind == ReturnKind.FLUX) ? value
                    : FlowCalls.fallback(value, this.returnsFlow, what);
            return FluxCalls.fallback(stream, this.returnsFlux || this.returnsFlow, this.elements,
                    MethodArguments.subscriberContextOf(call.arguments()), what);
        }
        if (this.guardedKind.isMono() && (this.returnsMono || MonoCalls.isMono(value))) {
            return MonoCalls.subscribe(value, MethodArguments.subscriberContextOf(call.arguments()),
                    "Fallback method '" + this.method.getName() + "'", this.executionResults);
        }
        boolean envelope = this.guardedKind == ReturnKind.EXECUTION_RESULT || this.executionResults;
        return (envelope && value instanceof ExecutionResult<?> result) ? result.getOrThrow() : value;
    }

}
