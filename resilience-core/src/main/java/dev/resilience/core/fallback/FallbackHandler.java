package dev.resilience.core.fallback;

import dev.resilience.core.CallContext;
import org.jspecify.annotations.Nullable;

/**
 * One alternative of a {@link FallbackChain}: produces a value from the failure of the
 * guarded call. Adds nothing to {@link dev.resilience.core.FallbackHandler}, which it
 * extends: a class implementing it is a handler of the new type too, and
 * {@link FallbackFunction} is the new type's.
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
     * @return the handler
     */
    static FallbackHandler of(String name, Class<? extends Throwable> type, FallbackFunction function) {
        dev.resilience.core.FallbackHandler handler = dev.resilience.core.FallbackHandler.of(name, type, function);
        return new FallbackHandler() {

            @Override
            public String name() {
                return handler.name();
            }

            @Override
            public boolean appliesTo(Throwable error) {
                return handler.appliesTo(error);
            }

            @Override
            public @Nullable Object apply(Throwable error, CallContext call) throws Throwable {
                return handler.apply(error, call);
            }

            @Override
            public String toString() {
                return handler.toString();
            }

        };
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

}
