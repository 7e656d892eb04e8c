package dev.resilience.core;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * The call whose attempt's value the result predicates are judging, bound to the judging
 * thread for as long as they judge it, so that a predicate can read the call's arguments
 * ({@link CallContext#judged()}). Nothing is bound for a call without a context
 * ({@link CallContext#empty()}). Once judging ends the thread keeps its entry, holding
 * {@code null} or the call judged around it, so that judging allocates nothing.
 */
final class JudgedCalls {

    private static final ThreadLocal<@Nullable CallContext> judged = new ThreadLocal<>();

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
            judged.set(previous);
        }
    }

}
