package dev.resilience.core;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * The call whose attempt's value the result predicates are judging, bound to the judging
 * thread for as long as they judge it, so that a predicate can read the call's arguments
 * ({@link CallContext#judged()}). Nothing is bound for a call without a context
 * ({@link CallContext#empty()}).
 */
final class JudgedCalls {

    private static final ThreadLocal<CallContext> judged = new ThreadLocal<>();

    private JudgedCalls() {
    }

    static CallContext current() {
        CallContext context = judged.get();
        return (context != null) ? context : CallContext.empty();
    }

    static <R> R judge(CallContext context, Supplier<R> judgement) {
        if (context == CallContext.empty()) {
            return judgement.get();
        }
        CallContext previous = judged.get();
        judged.set(context);
        try {
            return judgement.get();
        }
        finally {
            restore(previous);
        }
    }

    private static void restore(@Nullable CallContext previous) {
        if (previous == null) {
            judged.remove();
        }
        else {
            judged.set(previous);
        }
    }

}
