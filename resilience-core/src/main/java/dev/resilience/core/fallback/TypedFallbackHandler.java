package dev.resilience.core.fallback;

import dev.resilience.core.CallContext;
import org.jspecify.annotations.Nullable;

/**
 * A handler of the deprecated type, made by its {@code of} methods.
 */
@SuppressWarnings("removal")
record TypedFallbackHandler(String name, Class<? extends Throwable> type,
        FallbackHandler.FallbackFunction function) implements FallbackHandler {

    @Override
    public boolean appliesTo(Throwable error) {
        return this.type.isInstance(error);
    }

    @Override
    public @Nullable Object apply(Throwable error, CallContext call) throws Throwable {
        return this.function.apply(error, call);
    }

}
