package dev.resilience.core;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import org.jspecify.annotations.Nullable;

/**
 * The {@link AttemptGuard guards} of a pipeline, in their order, seen by the drivers as
 * one: an attempt is admitted when every guard admits it, and its outcome is told to
 * every guard, the innermost first. A synchronous attempt is admitted by
 * {@link #admit()}, which may wait on the caller's thread; an asynchronous one by
 * {@link #admitAsync()}, which never blocks. Hearing an outcome never changes it: a guard
 * that throws then is logged, and the call goes on with the attempt's own value or
 * failure, except for a {@link ResultPredicateException}, which ends the call, and an
 * {@link Error}, rethrown as it is once every other guard has heard. The pass of the
 * whole chain is the only guard's pass, or an array of passes when there are several, so
 * a pipeline with at most one guard allocates nothing per attempt. Built once per
 * pipeline; thread-safe.
 */
final class Guards {

    private static final System.Logger logger = System.getLogger(ResiliencePipeline.class.getName());

    private final AttemptGuard<@Nullable Object>[] guards;

    /** The guard of a pipeline that has exactly one, whose pass is the chain's. */
    private final @Nullable AttemptGuard<@Nullable Object> only;

    private final boolean timed;

    private final boolean judging;

    private final boolean atOnce;

    private final boolean countsChanges;

    /** Where the guards after one that made an asynchronous attempt wait are asked. */
    private final Executor executor;

    @SuppressWarnings("unchecked")
    Guards(List<AttemptGuard<?>> guards, Executor executor) {
        this.guards = guards.stream().sorted(Comparator.comparingInt(AttemptGuard::order)).toArray(AttemptGuard[]::new);
        this.only = (this.guards.length == 1) ? this.guards[0] : null;
        this.timed = guards.stream().anyMatch(AttemptGuard::usesDuration);
        this.judging = guards.stream().anyMatch(AttemptGuard::judgesValues);
        this.atOnce = guards.stream().allMatch(AttemptGuard::answersAtOnce);
        this.countsChanges = this.guards.length == 0 || (this.only != null && this.only.countsChanges());
        this.executor = executor;
    }

    /**
     * Returns whether the pipeline has a guard.
     * @return {@code false} when attempts pass no guard
     */
    boolean present() {
        return this.guards.length > 0;
    }

    /**
     * Returns whether a guard {@link AttemptGuard#usesDuration() uses} the duration of an
     * attempt: when none does, the drivers need not time an attempt for the guards, and
     * may tell them a duration of 0.
     * @return {@code true} if the guards must hear how long each attempt took
     */
    boolean timed() {
        return this.timed;
    }

    /**
     * Returns whether a guard {@link AttemptGuard#judgesValues() judges} the values of
     * attempts, with a predicate of the application's.
     * @return {@code true} if hearing a value may run such a predicate
     */
    boolean judgesValues() {
        return this.judging;
    }

    /**
     * Returns whether {@link #changes()} tells every change of the guards that may run
     * listeners: with no guard, or with one that {@link AttemptGuard#countsChanges()
     * counts} them.
     * @return {@code true} if a driver may compare {@link #changes()} around a step
     */
    boolean countsChanges() {
        return this.countsChanges;
    }

    /**
     * Returns the count of the only guard's changes that may run listeners, 0 without
     * guards; meaningful only when {@link #countsChanges()}.
     * @return the count
     */
    long changes() {
        AttemptGuard<@Nullable Object> single = this.only;
        return (single != null) ? single.changes() : 0;
    }

    /**
     * Returns whether every guard {@link AttemptGuard#answersAtOnce() answers at once}:
     * an asynchronous call may then be admitted through {@link #admit()}, which never
     * waits, instead of {@link #admitAsync()}.
     * @return {@code true} when no guard may make an attempt wait, as when there is none
     */
    boolean answersAtOnce() {
        return this.atOnce;
    }

    /**
     * Asks every guard, in order, to admit an attempt of a synchronous call, which may
     * wait on the calling thread for a guard that makes it wait. When one refuses, the
     * passes the guards before it gave are abandoned and its refusal is thrown as it is.
     * @return the pass of the chain, to hand back with the attempt's outcome
     * @throws RuntimeException the refusal of a guard
     */
    @Nullable Object admit() {
        AttemptGuard<@Nullable Object> single = this.only;
        if (single != null) {
            return single.admit();
        }
        AttemptGuard<@Nullable Object>[] chain = this.guards;
        if (chain.length == 0) {
            return null;
        }
        @Nullable Object[] passes = new Object[chain.length];
        for (int i = 0; i < chain.length; i++) {
            try {
                passes[i] = chain[i].admit();
            }
            catch (Throwable ex) {
                abandon(passes, i);
                throw ex;
            }
        }
        return passes;
    }

    /**
     * Asks every guard, in order, to admit an attempt of an asynchronous call, without
     * blocking: a guard that makes the attempt wait is asked again for nothing, and the
     * guards after it are asked when its pass comes, on the pipeline's executor, never on
     * the thread that ended the wait (a timer's). When one refuses, the passes the guards
     * before it gave are abandoned and the future completes with its refusal. Cancelling
     * the future gives up the wait of the guard it waits for; a pass that comes
     * afterwards is abandoned, with those before it.
     * @return the future pass of the chain
     */
    CompletableFuture<@Nullable Object> admitAsync() {
        AttemptGuard<@Nullable Object> single = this.only;
        if (single != null) {
            return single.admitAsync();
        }
        if (this.guards.length == 0) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<@Nullable Object> admission = new CompletableFuture<>();
        admitFrom(0, new Object[this.guards.length], admission);
        return admission;
    }

    private void admitFrom(int from, @Nullable Object[] passes, CompletableFuture<@Nullable Object> admission) {
        AttemptGuard<@Nullable Object>[] chain = this.guards;
        for (int i = from; i < chain.length; i++) {
            CompletableFuture<@Nullable Object> pending;
            try {
                pending = chain[i].admitAsync();
            }
            catch (RuntimeException ex) {
                pending = CompletableFuture.failedFuture(ex);
            }
            if (!pending.isDone()) {
                int index = i;
                CompletableFuture<@Nullable Object> waited = pending;
                admission.whenComplete((pass, failure) -> waited.cancel(false));
                waited.whenComplete((pass, failure) -> admitted(index, pass, failure, passes, admission));
                return;
            }
            if (pending.isCompletedExceptionally()) {
                abandon(passes, i);
                admission.completeExceptionally(Futures.unwrap(Futures.failureOf(pending)));
                return;
            }
            passes[i] = pending.join();
        }
        if (!admission.complete(passes)) {
            abandon(passes, chain.length);
        }
    }

    /**
     * Takes the answer of a guard that made the attempt wait, on the thread that ended
     * the wait (a timer, a call giving a permit back): a refusal, or the pass of the last
     * guard, only completes the admission there; the guards after it are asked on the
     * executor. When the executor refuses or drops that step, the passes are abandoned
     * and the admission fails with the executor's refusal.
     */
    private void admitted(int index, @Nullable Object pass, @Nullable Throwable failure, @Nullable Object[] passes,
            CompletableFuture<@Nullable Object> admission) {
        if (failure != null) {
            abandon(passes, index);
            admission.completeExceptionally(Futures.unwrap(failure));
            return;
        }
        passes[index] = pass;
        if (admission.isDone()) {
            abandon(passes, index + 1);
            return;
        }
        if (index + 1 == this.guards.length) {
            admitFrom(index + 1, passes, admission);
            return;
        }
        try {
            this.executor.execute(new HandedTask(() -> admitFrom(index + 1, passes, admission),
                    () -> notHandedOn(passes, index, admission, new RejectedExecutionException(
                            "The executor dropped the admission of an attempt by the guards after a wait"))));
        }
        catch (RuntimeException ex) {
            notHandedOn(passes, index, admission, ex);
        }
    }

    private void notHandedOn(@Nullable Object[] passes, int index, CompletableFuture<@Nullable Object> admission,
            RuntimeException refused) {
        abandon(passes, index + 1);
        admission.completeExceptionally(refused);
    }

    /**
     * Tells every guard that the admitted attempt produced a value. Never throws but an
     * {@link Error}: what a guard throws is logged and changes nothing in the call; an
     * Error is rethrown once every guard has heard.
     * @param pass the chain's pass
     * @param durationNanos how long the attempt took
     */
    void succeeded(@Nullable Object pass, long durationNanos) {
        succeeded(CallContext.empty(), pass, durationNanos, null);
    }

    /**
     * Tells every guard that the admitted attempt produced a value, and which. Never
     * throws but an {@link Error}: what a guard throws is logged and changes nothing in
     * the call, except a {@link ResultPredicateException} (a guard's result predicate
     * threw), which every other guard still hears the value and which the call then ends
     * with, and an Error, rethrown as it is once every other guard has heard the value.
     * @param context the call's context, {@link CallContext#judged() bound} while the
     * guards judge the value
     * @param pass the chain's pass
     * @param durationNanos how long the attempt took
     * @param value the attempt's value
     * @return the first {@link ResultPredicateException} a guard threw, or {@code null}
     * @throws Error what a guard threw, the first one
     */
    @Nullable ResultPredicateException succeeded(CallContext context, @Nullable Object pass, long durationNanos,
            @Nullable Object value) {
        if (!present()) {
            return null;
        }
        Throwable thrown = this.judging ? JudgedCalls.judge(context, () -> heardValue(pass, durationNanos, value))
                : heardValue(pass, durationNanos, value);
        if (thrown instanceof Error error) {
            throw error;
        }
        return (ResultPredicateException) thrown;
    }

    private @Nullable Throwable heardValue(@Nullable Object pass, long durationNanos, @Nullable Object value) {
        AttemptGuard<@Nullable Object> single = this.only;
        if (single != null) {
            return heardValue(single, pass, durationNanos, value, null);
        }
        Throwable thrown = null;
        AttemptGuard<@Nullable Object>[] chain = this.guards;
        for (int i = chain.length - 1; i >= 0; i--) {
            thrown = heardValue(chain[i], ((Object[]) pass)[i], durationNanos, value, thrown);
        }
        return thrown;
    }

    /**
     * Tells one guard of a value; returns what the call ends with: an {@link Error} over
     * a {@link ResultPredicateException}, the first of each.
     */
    private static @Nullable Throwable heardValue(AttemptGuard<@Nullable Object> guard, @Nullable Object pass,
            long durationNanos, @Nullable Object value, @Nullable Throwable thrown) {
        try {
            guard.succeeded(pass, durationNanos, value);
        }
        catch (ResultPredicateException ex) {
            return (thrown != null) ? thrown : ex;
        }
        catch (Error ex) {
            return (thrown instanceof Error) ? thrown : ex;
        }
        catch (RuntimeException ex) {
            logFailed(guard, "hear a success", ex);
        }
        return thrown;
    }

    /**
     * Tells every guard that the admitted attempt failed; a nested guard's refusal
     * wrapped by {@code join()} or {@code get()} is told unwrapped
     * ({@link NestedRefusals}). Never throws but an {@link Error}: what a guard throws is
     * logged and changes nothing in the call, whose failure stays the attempt's; an Error
     * is rethrown once every guard has heard.
     * @param pass the chain's pass
     * @param durationNanos how long the attempt took
     * @param attemptFailure what the attempt threw
     */
    void failed(@Nullable Object pass, long durationNanos, Throwable attemptFailure) {
        Throwable failure = NestedRefusals.unwrapped(attemptFailure);
        AttemptGuard<@Nullable Object> single = this.only;
        if (single != null) {
            rethrow(heardFailure(single, pass, durationNanos, failure, null));
            return;
        }
        Error thrown = null;
        AttemptGuard<@Nullable Object>[] chain = this.guards;
        for (int i = chain.length - 1; i >= 0; i--) {
            thrown = heardFailure(chain[i], ((Object[]) pass)[i], durationNanos, failure, thrown);
        }
        rethrow(thrown);
    }

    private static @Nullable Error heardFailure(AttemptGuard<@Nullable Object> guard, @Nullable Object pass,
            long durationNanos, Throwable failure, @Nullable Error thrown) {
        try {
            guard.failed(pass, durationNanos, failure);
        }
        catch (Error ex) {
            return (thrown != null) ? thrown : ex;
        }
        catch (RuntimeException ex) {
            logFailed(guard, "hear a failure", ex);
        }
        return thrown;
    }

    /**
     * Gives every guard back the pass of an attempt that ends without an outcome. Never
     * throws but an {@link Error}: what a guard throws is logged; an Error is rethrown
     * once every guard has its pass back.
     * @param pass the chain's pass
     */
    void abandoned(@Nullable Object pass) {
        AttemptGuard<@Nullable Object>[] chain = this.guards;
        if (chain.length == 1) {
            rethrow(abandon(chain[0], pass, null));
        }
        else if (chain.length > 1) {
            abandon((Object[]) pass, chain.length);
        }
    }

    private void abandon(@Nullable Object[] passes, int admitted) {
        Error thrown = null;
        for (int i = admitted - 1; i >= 0; i--) {
            thrown = abandon(this.guards[i], passes[i], thrown);
        }
        rethrow(thrown);
    }

    private static @Nullable Error abandon(AttemptGuard<@Nullable Object> guard, @Nullable Object pass,
            @Nullable Error thrown) {
        try {
            guard.abandoned(pass);
        }
        catch (Error ex) {
            return (thrown != null) ? thrown : ex;
        }
        catch (RuntimeException ex) {
            logFailed(guard, "take its pass back", ex);
        }
        return thrown;
    }

    private static void rethrow(@Nullable Error thrown) {
        if (thrown != null) {
            throw thrown;
        }
    }

    private static void logFailed(AttemptGuard<?> guard, String what, RuntimeException ex) {
        logger.log(System.Logger.Level.WARNING, "Attempt guard " + guard + " failed to " + what, ex);
    }

}
