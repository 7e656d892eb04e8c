package dev.resilience.core;

import java.util.Comparator;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The {@link AttemptGuard guards} of a pipeline, in their order, seen by the drivers as
 * one: an attempt is admitted when every guard admits it, and its outcome is told to
 * every guard, the innermost first. The pass of the whole chain is the only guard's pass,
 * or an array of passes when there are several, so a pipeline with at most one guard
 * allocates nothing per attempt. Built once per pipeline; thread-safe.
 */
final class Guards {

    private final AttemptGuard<@Nullable Object>[] guards;

    @SuppressWarnings("unchecked")
    Guards(List<AttemptGuard<?>> guards) {
        this.guards = guards.stream().sorted(Comparator.comparingInt(AttemptGuard::order)).toArray(AttemptGuard[]::new);
    }

    /**
     * Asks every guard, in order, to admit an attempt. When one refuses, the passes the
     * guards before it gave are abandoned and its refusal is thrown.
     * @return the pass of the chain, to hand back with the attempt's outcome
     * @throws RuntimeException the refusal of a guard
     */
    @Nullable Object admit() {
        AttemptGuard<@Nullable Object>[] chain = this.guards;
        if (chain.length == 0) {
            return null;
        }
        if (chain.length == 1) {
            return chain[0].admit();
        }
        @Nullable Object[] passes = new Object[chain.length];
        for (int i = 0; i < chain.length; i++) {
            try {
                passes[i] = chain[i].admit();
            }
            catch (RuntimeException | Error ex) {
                RuntimeException abandonError = abandon(passes, i);
                if (abandonError != null) {
                    ex.addSuppressed(abandonError);
                }
                throw ex;
            }
        }
        return passes;
    }

    /**
     * Tells every guard that the admitted attempt produced a value.
     * @param pass the chain's pass
     * @param durationNanos how long the attempt took
     */
    void succeeded(@Nullable Object pass, long durationNanos) {
        AttemptGuard<@Nullable Object>[] chain = this.guards;
        if (chain.length == 1) {
            chain[0].succeeded(pass, durationNanos);
            return;
        }
        RuntimeException firstError = null;
        for (int i = chain.length - 1; i >= 0; i--) {
            try {
                chain[i].succeeded(passOf(pass, i), durationNanos);
            }
            catch (RuntimeException ex) {
                firstError = (firstError != null) ? firstError : ex;
            }
        }
        rethrow(firstError);
    }

    /**
     * Tells every guard that the admitted attempt failed.
     * @param pass the chain's pass
     * @param durationNanos how long the attempt took
     * @param failure what the attempt threw
     */
    void failed(@Nullable Object pass, long durationNanos, Throwable failure) {
        AttemptGuard<@Nullable Object>[] chain = this.guards;
        if (chain.length == 1) {
            chain[0].failed(pass, durationNanos, failure);
            return;
        }
        RuntimeException firstError = null;
        for (int i = chain.length - 1; i >= 0; i--) {
            try {
                chain[i].failed(passOf(pass, i), durationNanos, failure);
            }
            catch (RuntimeException ex) {
                firstError = (firstError != null) ? firstError : ex;
            }
        }
        rethrow(firstError);
    }

    /**
     * Gives every guard back the pass of an attempt that ends without an outcome.
     * @param pass the chain's pass
     */
    void abandoned(@Nullable Object pass) {
        AttemptGuard<@Nullable Object>[] chain = this.guards;
        if (chain.length == 1) {
            chain[0].abandoned(pass);
        }
        else if (chain.length > 1) {
            rethrow(abandon((Object[]) pass, chain.length));
        }
    }

    private @Nullable RuntimeException abandon(@Nullable Object[] passes, int admitted) {
        RuntimeException firstError = null;
        for (int i = admitted - 1; i >= 0; i--) {
            try {
                this.guards[i].abandoned(passes[i]);
            }
            catch (RuntimeException ex) {
                firstError = (firstError != null) ? firstError : ex;
            }
        }
        return firstError;
    }

    private static @Nullable Object passOf(@Nullable Object pass, int index) {
        return ((Object[]) pass)[index];
    }

    private static void rethrow(@Nullable RuntimeException error) {
        if (error != null) {
            throw error;
        }
    }

}
