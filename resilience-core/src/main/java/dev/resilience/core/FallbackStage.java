package dev.resilience.core;

import java.util.List;
import java.util.Optional;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.lastgood.LastGoodValue;
import org.jspecify.annotations.Nullable;

/**
 * The fallback stage of a pipeline: which fallback, if any, a call that ended without a
 * value tries next. An interrupted call takes none: it ends at once. Built once per
 * pipeline; the drivers run the fallbacks it names, in order, until one succeeds. A value
 * the breaker's result predicate judges a failure is returned to the caller but never
 * kept as the last good value.
 */
final class FallbackStage {

    /** The position returned when no fallback is left to try. */
    static final int NONE = -1;

    private final @Nullable FallbackChain chain;

    private final @Nullable LastGood lastGood;

    private final @Nullable CircuitBreaker breaker;

    FallbackStage(@Nullable FallbackChain chain, @Nullable LastGood lastGood, @Nullable CircuitBreaker breaker) {
        this.chain = chain;
        this.lastGood = lastGood;
        this.breaker = breaker;
    }

    /**
     * Returns the last good value to serve a call that ended without a value, before any
     * named fallback.
     * @param call the call, with its outcome so far
     * @param name the pipeline's name
     * @return the value, or empty when there is none, or the call needs none
     */
    Optional<LastGoodValue> lastGood(Execution<?> call, String name) {
        LastGood values = this.lastGood;
        Throwable error = call.error;
        if (values == null || !needsFallback(call, error) || !values.appliesTo(error)) {
            return Optional.empty();
        }
        return values.find(name, call.context);
    }

    /**
     * Keeps the value of a successful call as its last good value, when the action itself
     * produced it and the breaker does not judge it a failure.
     * @param call the call, ended
     * @param produced whether the action produced the value: not a fallback, not a replay
     */
    void keep(Execution<?> call, boolean produced) {
        LastGood values = this.lastGood;
        if (values != null && produced && call.status == ExecutionStatus.SUCCESS && !judgedFailure(call)) {
            values.keep(call.stages.name, call.context, call.value, call.time.now());
        }
    }

    /**
     * Asks the breaker's result predicate, with the call's context bound, whether the
     * call's value is a failure; one that throws keeps no value either.
     */
    private boolean judgedFailure(Execution<?> call) {
        CircuitBreaker judge = this.breaker;
        if (judge == null) {
            return false;
        }
        try {
            return JudgedCalls.judge(call.context, () -> judge.config().isFailureResult(call.value));
        }
        catch (RuntimeException ex) {
            return true;
        }
    }

    /**
     * Returns how many positions the named fallbacks are moved by the last good value,
     * which is tried first.
     * @return 1 when the pipeline keeps last good values, else 0
     */
    int offset() {
        return (this.lastGood != null) ? 1 : 0;
    }

    private static boolean needsFallback(Execution<?> call, @Nullable Throwable error) {
        return call.status != ExecutionStatus.SUCCESS && error != null && !(error instanceof InterruptedException)
                && !(error instanceof CallInterruptedException);
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
        if (fallbacks == null || !needsFallback(call, error) || !fallbacks.appliesTo(error)) {
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
