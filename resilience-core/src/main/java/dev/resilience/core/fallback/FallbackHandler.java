package dev.resilience.core.fallback;

/**
 * One alternative of a {@link FallbackChain}: produces a value from the failure of the
 * guarded call. Adds nothing to {@link dev.resilience.core.FallbackHandler}, which it
 * extends: a class implementing it is a handler of the new type too, and its
 * {@link FallbackFunction} is a function of the new type's.
 *
 * @deprecated since 0.1.0, for removal: use {@link dev.resilience.core.FallbackHandler},
 * which has the same methods
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public interface FallbackHandler extends dev.resilience.core.FallbackHandler {

    /**
     * Returns a handler that applies to failures of the given type.
     * @param name the handler's name
     * @param type the failures it applies to, by {@code instanceof}
     * @param function what produces the value
     * @return the handler, equal to another of the same name, type and function
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
     * What produces a fallback value from the failure and the call.
     *
     * @deprecated since 0.1.0, for removal: use
     * {@link dev.resilience.core.FallbackHandler.FallbackFunction}, which it extends
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    @FunctionalInterface
    interface FallbackFunction extends dev.resilience.core.FallbackHandler.FallbackFunction {

    }

}
