package dev.resilience.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

import dev.resilience.core.time.ScheduledTask;
import org.jspecify.annotations.Nullable;

/**
 * One asynchronous call: attempts are started by the action's supplier, and no thread is
 * blocked while the call waits. Its steps carry out the stages' decisions (claim the key,
 * pass the guards, run attempts, retry, fall back); {@link AsyncSteps} runs them, on the
 * caller's thread first, then wherever a timer or a completed stage hands them.
 *
 * <p>
 * Stages that are already complete are handled in a loop on the same thread, so immediate
 * retries do not grow the stack. An attempt timeout completes the attempt's outcome on
 * the timer and cancels the stage on the executor; a late value is discarded.
 *
 * <p>
 * Cancelling (or otherwise completing) the returned future stops the call: no further
 * attempt or fallback starts, the awaited stage is cancelled, a wait is cut short, the
 * idempotency claim is released, and the call ends with status
 * {@link ExecutionStatus#ERROR} and a {@link java.util.concurrent.CancellationException},
 * which listeners are told of. An {@link Error} is never retried nor handed to a
 * fallback: the returned future completes exceptionally with it. Whatever else fails in
 * the machinery (a null stage, a rejected timer or executor task) ends the call with
 * status ERROR: the returned future always completes, and a pass or claim taken is always
 * given back or recorded.
 *
 * <p>
 * Longer than 400 lines because it carries out every decision of an asynchronous call,
 * and its awaited attempt ({@code PendingAttempt}) takes the call on from them: split,
 * each part would reach into the other's state.
 *
 * @param <T> the type of the call's value
 */
final class AsyncExecution<T> extends AsyncSteps<T> {

    private final Supplier<? extends CompletionStage<? extends T>> action;

    /** Whether the retry stage starts at the call's start: no key to claim, no hop. */
    private boolean retryStartsAtCall;

    /**
     * The retry stage's start; the first attempt's too, when the guards admit it at once.
     */
    private long retryStartNanos;

    AsyncExecution(Stages stages, CallContext context, Supplier<? extends CompletionStage<? extends T>> action) {
        super(stages, context);
        this.action = action;
    }

    CompletableFuture<ExecutionResult<T>> start(boolean onExecutor) {
        this.retryStartsAtCall = !onExecutor && !this.stages.idempotency.present();
        return start(this::claimKey, onExecutor);
    }

    private void claimKey() {
        switch (claim()) {
            case WAIT -> waitThen(this::claimKey, claimWaitNanos());
            case CLAIMED -> {
                this.retryStartNanos = this.retryStartsAtCall ? startNanos() : this.time.nanoTime();
                startRetryStage(this.retryStartNanos);
                attempts();
            }
            case SETTLED -> end();
        }
    }

    /**
     * Runs attempts while their stages are already complete and the next one follows at
     * once; returns when one must be awaited or waited for, or the retry stage is over.
     */
    private void attempts() {
        while (true) {
            if (cancelled()) {
                endCancelled();
                return;
            }
            if (this.attempts > 0 && pastDeadline()) {
                retryStageEnded();
                fallbacks(0);
                return;
            }
            RetryDecision next = (this.stages.hedging != null) ? hedgedAttempt(this.action, this::continueAfter)
                    : guardedAttempt();
            if (next == null) {
                return;
            }
            if (!(next instanceof RetryDecision.Retry retry) || retry.delayNanos() != 0) {
                continueAfter(next);
                return;
            }
        }
    }

    /**
     * Passes the guards, without a future when they all answer at once, and runs an
     * attempt; returns the retry stage's decision, or {@code null} when awaited.
     */
    private @Nullable RetryDecision guardedAttempt() {
        Guards guards = this.stages.guards;
        if (guards.answersAtOnce()) {
            boolean first = this.attempts == 0 && guards.countsChanges();
            long changes = first ? guards.changes() : 0;
            if (!permitted()) {
                return RetryDecision.STOP;
            }
            boolean unchanged = first && guards.changes() == changes;
            return admittedAttempt(unchanged ? this.retryStartNanos : this.time.nanoTime());
        }
        CompletableFuture<@Nullable Object> admission = admission();
        if (!admission.isDone()) {
            awaitAdmission(admission);
            return null;
        }
        return admitted(admission) ? admittedAttempt(this.time.nanoTime()) : RetryDecision.STOP;
    }

    /**
     * Runs an attempt the guards admitted, unless they admitted it only after the call's
     * deadline: the call then ends as a TIMEOUT.
     * @param now the clock once the guards admitted it: for a first attempt, the retry
     * stage's start when the guards answered at once and ran no listener, as nothing but
     * the engine's code ran since
     * @return the retry stage's decision, or {@code null} when the attempt's stage is
     * awaited
     */
    private @Nullable RetryDecision admittedAttempt(long now) {
        if (this.stages.retry.admittedPastDeadline(this)) {
            return RetryDecision.STOP;
        }
        long limit = attemptLimitNanos();
        long start = attemptBegan(now);
        CompletableFuture<? extends T> stage = startAttempt();
        if (limit > 0 && this.time.nanoTime() - start >= limit) {
            Futures.cancelQuietly(stage);
            return attempted(null, own(attemptTimeout(limit)), start);
        }
        if (!stage.isDone()) {
            await(new PendingAttempt(stage, start, limit));
            return null;
        }
        return attempted(Futures.valueOf(stage), Futures.failureOf(stage), start);
    }

    /**
     * Waits, without a thread, for a guard to admit the next attempt: the step that
     * follows runs on the executor once the pass or the refusal comes. A pass that comes
     * after the call was cancelled is given back.
     */
    private void awaitAdmission(CompletableFuture<@Nullable Object> admission) {
        awaiting(admission);
        admission.whenComplete((pass, failure) -> handOverOutcome(() -> {
            if (!admitted(admission)) {
                if (cancelled()) {
                    endCancelled();
                    return;
                }
                retryStageEnded();
                fallbacks(0);
                return;
            }
            if (cancelled()) {
                this.pass.abandon();
                endCancelled();
                return;
            }
            RetryDecision next = admittedAttempt(this.time.nanoTime());
            if (next != null) {
                continueAfter(next);
            }
        }, (refused) -> {
            admitted(admission);
            stop(ExecutionStatus.ERROR, refused);
            end();
        }));
        if (cancelled()) {
            Futures.cancelQuietly(admission);
        }
    }

    private CompletableFuture<? extends T> startAttempt() {
        CompletionStage<? extends T> stage;
        try {
            stage = this.action.get();
        }
        catch (Throwable ex) {
            return CompletableFuture.failedFuture(ex);
        }
        if (stage == null) {
            return CompletableFuture.failedFuture(new NullPointerException(
                    "The action of '" + this.stages.name + "' returned null instead of a CompletionStage"));
        }
        return Futures.future(stage);
    }

    private void await(PendingAttempt pending) {
        awaiting(pending.stage);
        if (pending.limit > 0) {
            long left = pending.limit - (this.time.nanoTime() - pending.start);
            try {
                pending.timeoutTask = this.time.scheduleHandOff(pending, Duration.ofNanos(Math.max(1, left)));
            }
            catch (RuntimeException ex) {
                pending.decided.set(true);
                Futures.cancelQuietly(pending.stage);
                throw ex;
            }
        }
        pending.stage.whenComplete(pending);
        if (cancelled()) {
            Futures.cancelQuietly(pending.stage);
        }
    }

    /**
     * Takes the outcome of an awaited attempt. A value is kept even when the call was
     * cancelled meanwhile; a failure of a cancelled call gives the permit back and ends
     * it.
     */
    private void attemptEnded(@Nullable T value, @Nullable Throwable failure, long start, boolean timedOut) {
        if (failure != null && cancelled()) {
            this.pass.abandon();
            endCancelled();
            return;
        }
        if (timedOut && failure != null) {
            own(failure);
        }
        continueAfter(attempted(value, failure, start));
    }

    /**
     * Ends the call with the outcome of an awaited attempt when the executor refused the
     * step that would take it: a value is kept, a failure recorded, and nothing more is
     * tried.
     */
    private void attemptEndedRefused(@Nullable T value, @Nullable Throwable failure, long start,
            RuntimeException refused) {
        long duration = this.time.nanoTime() - start;
        if (failure == null) {
            this.pass.succeeded(duration, value);
            succeed(value);
        }
        else {
            Throwable cause = Futures.unwrap(failure);
            this.pass.failed(duration, cause);
            stop(ExecutionStatus.ERROR, refused);
        }
        end();
    }

    private RetryDecision attempted(@Nullable T value, @Nullable Throwable failure, long start) {
        if (failure == null) {
            ResultPredicateException judged = valueProduced(start, value);
            return (judged != null) ? this.stages.retry.afterRejection(this, judged, start) : afterValue(value, start);
        }
        Throwable cause = Futures.unwrap(failure);
        this.pass.failed(this.time.nanoTime() - start, cause);
        if (cause instanceof Error fatal) {
            throw fatal;
        }
        return afterFailure(cause, start);
    }

    private void continueAfter(RetryDecision next) {
        if (!(next instanceof RetryDecision.Retry retry)) {
            retryStageEnded();
            fallbacks(0);
        }
        else if (retry.delayNanos() == 0) {
            attempts();
        }
        else {
            waitThen(this::attempts, retry.delayNanos());
        }
    }

    private void fallbacks(int from) {
        if (from == 0 && !cancelled() && servedLastGood()) {
            end();
            return;
        }
        int index = nextFallback(from);
        while (index >= 0) {
            if (cancelled()) {
                endCancelled();
                return;
            }
            Object fallbackValue;
            try {
                fallbackValue = fallbackHandler(index).apply(this.error, this.context);
            }
            catch (Error ex) {
                throw ex;
            }
            catch (Throwable ex) {
                fallbackFailed(index, ex);
                index = nextFallback(index + 1);
                continue;
            }
            if (!(fallbackValue instanceof CompletionStage<?> stage)) {
                fallbackSucceeded(index, fallbackValue);
                end();
                return;
            }
            CompletableFuture<?> future = Futures.future(stage);
            if (!future.isDone()) {
                awaitFallback(future, index);
                return;
            }
            if (fallbackEnded(index, Futures.valueOf(future), Futures.failureOf(future))) {
                return;
            }
            index = nextFallback(index + 1);
        }
        end();
    }

    private void awaitFallback(CompletableFuture<?> future, int index) {
        awaiting(future);
        future.whenComplete((fallbackValue, failure) -> handOverOutcome(() -> {
            if (failure != null && cancelled()) {
                endCancelled();
            }
            else if (!fallbackEnded(index, fallbackValue, failure)) {
                fallbacks(index + 1);
            }
        }, (refused) -> {
            if (failure == null) {
                fallbackSucceeded(index, fallbackValue);
            }
            else {
                stop(ExecutionStatus.ERROR, refused);
            }
            end();
        }));
        if (cancelled()) {
            Futures.cancelQuietly(future);
        }
    }

    /**
     * Takes the outcome of a fallback's stage.
     * @return {@code true} if it ended the call
     */
    private boolean fallbackEnded(int index, @Nullable Object fallbackValue, @Nullable Throwable failure) {
        if (failure == null) {
            fallbackSucceeded(index, fallbackValue);
            end();
            return true;
        }
        Throwable cause = Futures.unwrap(failure);
        if (cause instanceof Error fatal) {
            throw fatal;
        }
        fallbackFailed(index, cause);
        return false;
    }

    /**
     * An attempt whose stage is awaited: the stage's completion or the attempt's timeout,
     * whichever comes first, decides it. A stage that completes once the limit has passed
     * is a timeout even when the timer has not fired yet.
     */
    private final class PendingAttempt implements BiConsumer<T, Throwable>, Runnable {

        private final CompletableFuture<? extends T> stage;

        private final long start;

        private final long limit;

        private final AtomicBoolean decided = new AtomicBoolean();

        private volatile @Nullable ScheduledTask timeoutTask;

        PendingAttempt(CompletableFuture<? extends T> stage, long start, long limit) {
            this.stage = stage;
            this.start = start;
            this.limit = limit;
        }

        @Override
        public void accept(@Nullable T value, @Nullable Throwable failure) {
            if (this.limit > 0 && AsyncExecution.this.time.nanoTime() - this.start >= this.limit) {
                run();
                return;
            }
            if (this.decided.compareAndSet(false, true)) {
                ScheduledTask timer = this.timeoutTask;
                if (timer != null) {
                    timer.cancel();
                }
                handOverOutcome(() -> attemptEnded(value, failure, this.start, false),
                        (refused) -> attemptEndedRefused(value, failure, this.start, refused));
            }
        }

        @Override
        public void run() {
            if (this.decided.compareAndSet(false, true)) {
                AttemptTimeoutException timeout = attemptTimeout(this.limit);
                handOverOutcome(() -> {
                    Futures.cancelQuietly(this.stage);
                    attemptEnded(null, timeout, this.start, true);
                }, (refused) -> {
                    Futures.cancelQuietly(this.stage);
                    attemptEndedRefused(null, timeout, this.start, refused);
                });
            }
        }

    }

}
