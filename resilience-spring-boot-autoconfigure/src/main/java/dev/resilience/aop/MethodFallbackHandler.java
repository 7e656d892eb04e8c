package dev.resilience.aop;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.FallbackHandler;
import org.jspecify.annotations.Nullable;

/**
 * A fallback method of the guarded bean, called with the guarded call's arguments and,
 * when it declares one, the failure.
 */
final class MethodFallbackHandler implements FallbackHandler {

    private final Method method;

    private final @Nullable Class<?> failureType;

    private final boolean unwrapsResult;

    MethodFallbackHandler(Method method, @Nullable Class<?> failureType, boolean unwrapsResult) {
        this.method = method;
        this.failureType = failureType;
        this.unwrapsResult = unwrapsResult;
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
        try {
            value = this.method.invoke(call.target(), arguments);
        }
        catch (InvocationTargetException ex) {
            throw ex.getTargetException();
        }
        return (this.unwrapsResult && value instanceof ExecutionResult<?> result) ? result.getOrThrow() : value;
    }

}
