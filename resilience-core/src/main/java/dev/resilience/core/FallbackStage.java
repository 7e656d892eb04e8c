package dev.resilience.core;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The fallback stage of a pipeline: which fallback, if any, a call that ended without a
 * value tries next. An interrupted call takes none: it ends at once. Built once per
 * pipeline; the drivers run the fallbacks it names, in order, until one succeeds.
 */
final class FallbackStage {

    /** The position returned when no fallback is left to try. */
    static final int NONE = -1;

    private final @Nullable FallbackChain chain;

    FallbackStage(@Nullable FallbackChain chain) {
        this.chain = chain;
    }

    /**
     * Returns the position of the next fallback to try, from a position on.
     * @param call the call, with its outcome so far
     * @param from the position to look from, the first being 0
     * @return the position of the next applicable fallback, or {@link #NONE} when none is
     * left or the call needs none
     */
    int next(Execution<?> call, int from) {
        FallbackChain fallbacks = this.chain;
        Throwable error = call.error;
        if (fallbacks == null || call.status == ExecutionStatus.SUCCESS || error == null
                || error instanceof InterruptedException || error instanceof CallInterruptedException
                || !fallbacks.appliesTo(error)) {
            return NONE;
        }
        List<FallbackHandler> handlers = fallbacks.handlers();
        for (int index = from; index < handlers.size(); index++) {
            if (handlers.get(index).appliesTo(error)) {
                return index;
            }
        }
        return NONE;
    }

    /**
     * Returns the fallback at a position that {@link #next} returned.
     * @param index the position
     * @return the fallback
     */
    FallbackHandler handler(int index) {
        return this.chain.handlers().get(index);
    }

}
