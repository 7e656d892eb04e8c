package dev.resilience.core;

import org.jspecify.annotations.Nullable;

record TypedFallbackHandler(String name, Class<? extends Throwable> type,
        FallbackFunction function) implements FallbackHandler {

    @Override
    public boolean appliesTo(Throwable error) {
        return this.type.isInstance(error);
    }

    @Override
    public @Nullable Object apply(Throwable error, CallContext call) throws Throwable {
        return this.function.apply(error, call);
    }
}
