package dev.resilience.aop;

import dev.resilience.core.CallContext;
import org.jspecify.annotations.Nullable;

/**
 * Changes the context of a call to an annotated method before it enters the method's
 * pipeline, such as the re-drive of a dead letter, which gives the call it re-runs a
 * listener and a dead-letter record of its own. Asked on every call, on the caller's
 * thread: an implementation answers fast, and returns the context as it is when it has
 * nothing to change.
 */
@FunctionalInterface
public interface CallContextCustomizer {

    /** Changes nothing. */
    CallContextCustomizer NONE = (context) -> context;

    /**
     * Returns the context the call enters its pipeline with.
     * @param context the call's context
     * @return the context to use, the given one when nothing changes
     */
    CallContext customize(CallContext context);

    /**
     * Returns the Reactor context of the subscriber whose subscription made a call of a
     * method returning {@code Mono} or {@code Flux}, such as for a listener that this
     * customizer gives the call and that must find the subscriber's web exchange.
     * @param context the call's context
     * @return the subscriber's {@code ContextView}, typed {@code Object} so that no
     * signature names Reactor, or {@code null} for any other call
     */
    static @Nullable Object subscriberContext(CallContext context) {
        Object carried = MethodArguments.subscriberContextOf(context.arguments());
        return (carried != null && FluxCalls.isCall(carried)) ? FluxCalls.subscriberContextOf(carried) : carried;
    }

}
