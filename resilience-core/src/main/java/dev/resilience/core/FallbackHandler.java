package dev.resilience.core;

import org.jspecify.annotations.Nullable;

/**
 * One alternative of a {@link FallbackChain}: produces a value from the failure of the
 * guarded call.
 */
public interface FallbackHandler {

    /**
     * Returns the handler's name, used in metrics and results (a method name, say).
     * @return the name
     */
    String name();

    /**
     * Returns whether this handler applies to the given failure.
     * @param error the failure of the guarded call
     * @return {@code true} if {@link #apply} should be tried
     */
    boolean appliesTo(Throwable error);

    /**
     * Produces the fallback value. For an asynchronous call the value may be a
     * {@link java.util.concurrent.CompletionStage}, whose outcome is then awaited.
     * @param error the failure of the guarded call
     * @param call the guarded call's target and arguments
     * @return the value
     * @throws Throwable when this fallback fails too
     */
    @Nullable Object apply(Throwable error, CallContext call) throws Throwable;

    /**
     * Returns a handler that applies to failures of the given type.
     * @param name the handler's name
     * @param type the failures it applies to, by {@code instanceof}
     * @param function what produces the value
     * @return the handler
     */
    static FallbackHandler of(String name, Class<? extends Throwable> type, FallbackFunction function) {
        return new TypedFallbackHandler(name, type, function);
    }

    /**
     * Returns a handler that applies to every failure.
     * @param name the handler's name
     * @param function what produces the value
     * @return the handler
     */
    static FallbackHandler of(String name, FallbackFunction function) {
        return of(name, Throwable.class, function);
    }

    /**
     * The body of a fallback.
     */
    @FunctionalInterface
    interface FallbackFunction {

        /**
         * Produces the fallback value.
         * @param error the failure of the guarded call
         * @param call the guarded call's target and arguments
         * @return the value
         * @throws Throwable when this fallback fails too
         */
        @Nullable Object apply(Throwable error, CallContext call) throws Throwable;

    }

}
