package dev.resilience.core.fallback;

import java.util.List;
import java.util.function.Supplier;

import dev.resilience.core.support.ExceptionFilter;

/**
 * The fallbacks of a call, tried in order until one succeeds, and the failures they apply
 * to. Immutable and thread-safe. Passed to
 * {@link dev.resilience.core.ResiliencePipeline.Builder}, it becomes the
 * {@link dev.resilience.core.FallbackChain} that {@link #get} returns.
 *
 * @param handlers the fallbacks, in the order they are tried
 * @param applyOn the failures the chain applies to; empty means every failure not in
 * {@code skipOn}
 * @param skipOn the failures passed on without trying any fallback
 * @deprecated since 0.1.0, for removal: use {@link dev.resilience.core.FallbackChain},
 * which has the same components and methods
 */
@Deprecated(since = "0.1.0", forRemoval = true)
@SuppressWarnings("removal")
public record FallbackChain(List<FallbackHandler> handlers, List<Class<? extends Throwable>> applyOn,
        List<Class<? extends Throwable>> skipOn) implements Supplier<dev.resilience.core.FallbackChain> {

    /**
     * Copies the lists and refuses an empty chain.
     */
    public FallbackChain {
        handlers = List.copyOf(handlers);
        applyOn = List.copyOf(applyOn);
        skipOn = List.copyOf(skipOn);
        if (handlers.isEmpty()) {
            throw new IllegalArgumentException("A fallback chain needs at least one fallback");
        }
    }

    /**
     * Returns a chain that applies to every failure.
     * @param handlers the fallbacks, in order
     * @return the chain
     */
    public static FallbackChain of(FallbackHandler... handlers) {
        return new FallbackChain(List.of(handlers), List.of(), List.of());
    }

    /**
     * Returns whether the chain applies to a failure at all.
     * @param error the failure of the guarded call
     * @return {@code false} if the failure is in {@code skipOn}, or not in a non-empty
     * {@code applyOn}
     */
    public boolean appliesTo(Throwable error) {
        return ExceptionFilter.matches(error, this.applyOn, this.skipOn);
    }

    /**
     * Returns this chain as the type that replaces it: the same handlers in the same
     * order, the same {@code applyOn} and {@code skipOn}.
     * @return the chain
     */
    @Override
    public dev.resilience.core.FallbackChain get() {
        return new dev.resilience.core.FallbackChain(List.copyOf(this.handlers), this.applyOn, this.skipOn);
    }

}
