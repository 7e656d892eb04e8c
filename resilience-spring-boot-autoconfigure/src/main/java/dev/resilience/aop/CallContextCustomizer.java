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
     * Returns the customizer that applies this one, then the given one.
     * @param next the customizer applied after this one
     * @return the composed customizer, the given one when this one is {@link #NONE}
     */
    default CallContextCustomizer andThen(CallContextCustomizer next) {
        return (this == NONE) ? next : (context) -> next.customize(customize(context));
    }

    /**
     * Returns the Reactor context of the subscriber of a call of a method returning
     * {@code Mono} or {@code Flux}, which is what a reactive web framework puts there
     * (the {@code ServerWebExchange} of the request, with Spring's
     * {@code ServerWebExchangeContextFilter}).
     * @param context the call's context
     * @return the subscriber's {@code reactor.util.context.ContextView}, typed
     * {@code Object} so that Reactor stays optional; {@code null} for a call of any other
     * method
     */
    static @Nullable Object subscriberContext(CallContext context) {
        return MethodArguments.subscriberContextOf(context.arguments());
    }

}
