package dev.resilience.aop;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.resilience.core.ExecutionResult;

import org.springframework.core.ResolvableType;

/**
 * How an annotated method hands its outcome back, which decides how the interceptor runs
 * it.
 */
enum ReturnKind {

    /** A plain value or {@code void}: the value is returned or the final error thrown. */
    VALUE,

    /**
     * A {@link CompletionStage} or {@link CompletableFuture}: retried without blocking.
     */
    COMPLETION_STAGE,

    /**
     * An {@link ExecutionResult}: the complete account is returned and nothing is thrown.
     */
    EXECUTION_RESULT,

    /**
     * A Reactor {@code Mono}: each subscription is a call, each attempt a subscription to
     * the {@code Mono} the method returns, retried without blocking.
     */
    MONO,

    /**
     * A Reactor {@code Flux}: each subscription is a call, each attempt a subscription to
     * the {@code Flux} the method returns, retried only until it emits its first element.
     */
    FLUX,

    /**
     * A Kotlin {@code suspend} function: Spring's proxy hands the advice a {@code Mono}
     * of the function's value for each invocation and awaits the {@code Mono} the advice
     * returns, so the function goes as a {@link #MONO} does, its value typed by its
     * Kotlin signature.
     */
    SUSPEND,

    /**
     * A Kotlin {@code Flow} returned by a function that is not {@code suspend}: adapted
     * to a {@code Flux} at both ends ({@link FlowCalls}), it goes as a {@link #FLUX}
     * does, each collection a call.
     */
    FLOW,

    /**
     * A Kotlin {@code suspend} function returning {@code Flow}: Spring's proxy hands the
     * advice a {@code Flux} of the function's {@code Flow} for each invocation and turns
     * the {@code Flux} the advice returns into a {@code Flow}, so the function goes as a
     * {@link #FLUX} does, its arguments as a {@link #SUSPEND} function's.
     */
    SUSPEND_FLOW;

    /** The name of Reactor's {@code Mono}, which stays an optional dependency. */
    static final String MONO_TYPE = "reactor.core.publisher.Mono";

    /** The name of Reactor's {@code Flux}, which stays an optional dependency. */
    static final String FLUX_TYPE = "reactor.core.publisher.Flux";

    /** The name of Kotlin's {@code Flow}, which stays an optional dependency. */
    static final String FLOW_TYPE = "kotlinx.coroutines.flow.Flow";

    private static final String CONTINUATION = "kotlin.coroutines.Continuation";

    static ReturnKind of(Method method) {
        if (isSuspending(method)) {
            Class<?> value = ResolvableType.forMethodReturnType(method).resolve(Object.class);
            return FLOW_TYPE.equals(value.getName()) ? SUSPEND_FLOW : SUSPEND;
        }
        Class<?> type = method.getReturnType();
        if (ExecutionResult.class.equals(type)) {
            return EXECUTION_RESULT;
        }
        if (MONO_TYPE.equals(type.getName())) {
            return MONO;
        }
        if (FLUX_TYPE.equals(type.getName())) {
            return FLUX;
        }
        if (FLOW_TYPE.equals(type.getName())) {
            return FLOW;
        }
        if (CompletionStage.class.isAssignableFrom(type)) {
            return COMPLETION_STAGE;
        }
        return VALUE;
    }

    static boolean isSupportedStage(Class<?> type) {
        return type.isAssignableFrom(CompletableFuture.class);
    }

    /**
     * Tells whether a method is a Kotlin {@code suspend} function, whose compiled form
     * takes a {@code Continuation} last; Kotlin is recognized by name and stays optional.
     * @param method the method
     * @return {@code true} for a {@code suspend} function
     */
    static boolean isSuspending(Method method) {
        Class<?>[] parameters = method.getParameterTypes();
        return parameters.length > 0 && CONTINUATION.equals(parameters[parameters.length - 1].getName());
    }

    /**
     * Returns the type of the value a method of this kind yields.
     * @param returnType the method's return type, read from the Kotlin signature for a
     * {@code suspend} function
     * @return the return type itself for a plain value or a {@code suspend} function,
     * {@code T} for a {@code Mono<ExecutionResult<T>>}, else the type it holds
     */
    ResolvableType valueType(ResolvableType returnType) {
        if (this == VALUE || this == SUSPEND) {
            return returnType;
        }
        ResolvableType held = returnType.getGeneric(0);
        return (this == MONO && ExecutionResult.class.equals(held.resolve())) ? held.getGeneric(0) : held;
    }

    /**
     * Tells whether each attempt of a method of this kind is a subscription to a
     * {@code Mono} and each call a subscription to the {@code Mono} the proxy returns.
     * @return {@code true} for {@link #MONO} and {@link #SUSPEND}
     */
    boolean isMono() {
        return this == MONO || this == SUSPEND;
    }

    /**
     * Tells whether each attempt of a method of this kind is a subscription to a
     * {@code Flux}, retried only until its first element, and each call a subscription to
     * the {@code Flux} the proxy returns (or to the {@code Flow} made of it).
     * @return {@code true} for {@link #FLUX}, {@link #FLOW} and {@link #SUSPEND_FLOW}
     */
    boolean isFlux() {
        return this == FLUX || this == FLOW || this == SUSPEND_FLOW;
    }

    /**
     * Tells whether a method returns a {@code Mono} of {@link ExecutionResult}: each
     * subscription emits the complete account of its call, and its attempts' and
     * fallbacks' {@code Mono}s emit an {@code ExecutionResult} whose value or error is
     * theirs.
     * @param method the method
     * @return {@code true} for {@code Mono<ExecutionResult<T>>}
     */
    static boolean emitsExecutionResult(Method method) {
        return of(method) == MONO
                && ExecutionResult.class.equals(ResolvableType.forMethodReturnType(method).getGeneric(0).resolve());
    }

}
