package dev.resilience.aop;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.resilience.core.ExecutionResult;

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
    FLUX;

    /** The name of Reactor's {@code Mono}, which stays an optional dependency. */
    static final String MONO_TYPE = "reactor.core.publisher.Mono";

    /** The name of Reactor's {@code Flux}, which stays an optional dependency. */
    static final String FLUX_TYPE = "reactor.core.publisher.Flux";

    static ReturnKind of(Method method) {
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
        if (CompletionStage.class.isAssignableFrom(type)) {
            return COMPLETION_STAGE;
        }
        return VALUE;
    }

    static boolean isSupportedStage(Class<?> type) {
        return type.isAssignableFrom(CompletableFuture.class);
    }

}
