package dev.resilience.aop;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

import kotlin.coroutines.Continuation;
import kotlin.coroutines.CoroutineContext;
import kotlinx.coroutines.Job;
import kotlinx.coroutines.reactor.MonoKt;
import org.jspecify.annotations.Nullable;

/**
 * Runs a plain fallback of a Kotlin {@code suspend} function where the function's own
 * invocations run: in a coroutine of the caller's context without its {@code Job}, as
 * Spring's proxy runs the function, so that the fallback has the caller's dispatcher and
 * thread context elements (an {@code MDCContext}) as the attempts and a {@code suspend}
 * fallback have. Loaded only for such a fallback, so Kotlin stays optional.
 */
final class SuspendFallbacks {

    private SuspendFallbacks() {
    }

    /**
     * Returns the cold {@code Mono} of a plain fallback's value.
     * @param method the fallback method
     * @param target the bean
     * @param arguments the fallback's arguments
     * @param continuation the {@code Continuation} of the call, whose context the
     * fallback runs in
     * @return the {@code Mono}, empty for a {@code null} value, failing with what the
     * fallback throws
     */
    static Object inCallersContext(Method method, @Nullable Object target, @Nullable Object[] arguments,
            Object continuation) {
        CoroutineContext context = ((Continuation<?>) continuation).getContext().minusKey(Job.Key);
        return MonoKt.mono(context, (scope, coroutine) -> invoke(method, target, arguments));
    }

    private static @Nullable Object invoke(Method method, @Nullable Object target, @Nullable Object[] arguments) {
        try {
            return method.invoke(target, arguments);
        }
        catch (InvocationTargetException ex) {
            throw SuspendFallbacks.<RuntimeException>rethrow(ex.getTargetException());
        }
        catch (IllegalAccessException ex) {
            throw new IllegalStateException("Fallback method '" + method.getName() + "' cannot be called", ex);
        }
    }

    /** Throws what the fallback threw as it is, checked or not. */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E rethrow(Throwable thrown) throws E {
        throw (E) thrown;
    }

}
