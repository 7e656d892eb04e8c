package dev.resilience.core;

import java.time.Duration;
import java.util.concurrent.Callable;

import dev.resilience.core.time.ScheduledTask;
import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

/**
 * One synchronous call: every attempt runs on the caller's thread, so that thread-bound
 * state such as a transaction is the caller's, and every wait blocks it.
 *
 * <p>
 * An attempt timeout is a timer that only interrupts the caller's thread; an attempt that
 * outlives its timeout is a timeout whatever it returns. An interruption from anyone
 * else, of an attempt or of a wait, ends the call at once, and the thread's interrupt
 * flag is set again when it returns. An {@link Error} is never retried nor handed to a
 * fallback: it is thrown as it is, after the claim and the guards' passes are settled.
 *
 * @param <T> the type of the call's value
 */
final class SyncExecution<T> extends Execution<T> {

    private final Callable<? extends T> action;

    SyncExecution(Stages stages, CallContext context, Callable<? extends T> action, long startNanos) {
        super(stages, context, startNanos);
        this.action = action;
    }

    /**
     * Runs a call and returns its value, the way {@link ResiliencePipeline#call} does.
     * When the stages need no per-call state before the first attempt ends
     * ({@link Stages#statelessStart}), that attempt passes the retry stage and the guards
     * with its state on the stack (the guards' pass too), and the clock is read only for
     * what needs it: the call's start for a retry budget on the pipeline's clock, the
     * attempt's start and end when a guard uses its duration or a dead letter would say
     * when it began (the attempt's start is read after the guards admitted it, since a
     * guard may make it wait), and its end when it did not end the call with a value. A
     * call through a fixed bulkhead or a rate limiter alone reads no clock of its own.
     * The call's {@link SyncExecution} is only created when the attempt did not end the
     * call with a value, and takes the call on from the retry stage's decision on that
     * attempt, as for any other attempt.
     * @param stages the pipeline's stages
     * @param context the call's context
     * @param action the action
     * @param <T> the type of its value
     * @return the value of the action or of a fallback, or the replayed value
     * @throws Exception the final error
     */
    static <T> @Nullable T call(Stages stages, CallContext context, Callable<? extends T> action) throws Exception {
        TimeSource time = stages.time;
        if (!stages.statelessStart(context)) {
            return new SyncExecution<T>(stages, context, action, time.nanoTime()).run().getOrThrow();
        }
        long start = stages.readsCallStart ? time.nanoTime() : 0;
        stages.retry.enter(start);
        Object pass;
        try {
            pass = stages.guards.admit();
        }
        catch (RuntimeException ex) {
            return refusedFirst(stages, context, action, start, ex);
        }
        long attemptStart = (stages.timesFirstAttempt && stages.guards.present()) ? time.nanoTime() : start;
        T value;
        try {
            value = action.call();
        }
        catch (Exception ex) {
            return afterFirstFailure(stages, context, action, pass, start, attemptStart, ex);
        }
        catch (Throwable ex) {
            stages.guards.failed(pass, stages.timesFirstAttempt ? time.nanoTime() - attemptStart : 0, ex);
            throw ex;
        }
        RuntimeException judged = stages.guards.succeeded(context, pass, stages.guardedDuration(attemptStart), value);
        RuntimeException rejection = (judged != null) ? judged : stages.retry.rejection(context, value);
        return (rejection != null) ? afterFirstRejection(stages, context, action, start, attemptStart, rejection)
                : value;
    }

    /**
     * Takes on a call without per-call state whose first attempt a guard refused. This
     * and the other ways of taking on a call are kept apart from {@link #call}, so that
     * its success path stays small enough for the compiler to inline into its caller.
     */
    private static <T> @Nullable T refusedFirst(Stages stages, CallContext context, Callable<? extends T> action,
            long start, RuntimeException refusal) throws Exception {
        long now = stages.readsCallStart ? start : stages.time.nanoTime();
        return new SyncExecution<T>(stages, context, action, now).rejectedAtOnce(refusal).getOrThrow();
    }

    /**
     * Takes on a call without per-call state whose first attempt failed, once the guards
     * have heard it.
     */
    private static <T> @Nullable T afterFirstFailure(Stages stages, CallContext context, Callable<? extends T> action,
            @Nullable Object pass, long start, long attemptStart, Exception failure) throws Exception {
        long end = stages.time.nanoTime();
        long began = stages.timesFirstAttempt ? attemptStart : end;
        stages.guards.failed(pass, end - began, failure);
        return new SyncExecution<T>(stages, context, action, stages.readsCallStart ? start : began)
            .afterFirstAttempt(began, null, failure)
            .getOrThrow();
    }

    /**
     * Takes on a call without per-call state whose first attempt's value a guard or the
     * retry stage rejected.
     */
    private static <T> @Nullable T afterFirstRejection(Stages stages, CallContext context, Callable<? extends T> action,
            long start, long attemptStart, RuntimeException rejection) throws Exception {
        long began = stages.timesFirstAttempt ? attemptStart : stages.time.nanoTime();
        return new SyncExecution<T>(stages, context, action, stages.readsCallStart ? start : began)
            .afterFirstAttempt(began, rejection, null)
            .getOrThrow();
    }

    /**
     * Runs a call from its idempotency stage on.
     * @return the complete account of the call
     */
    ExecutionResult<T> run() {
        try {
            if (claimKey()) {
                startRetryStage(this.stages.idempotency.present() ? this.time.nanoTime() : startNanos());
                retryLoop(attempt());
                fallbackStage();
            }
        }
        catch (RuntimeException ex) {
            stop(ExecutionStatus.ERROR, ex);
        }
        finally {
            settleClaim();
            this.pass.abandon();
        }
        return end();
    }

    private boolean claimKey() {
        IdempotencyClaim.Decision decision;
        while ((decision = claim()) == IdempotencyClaim.Decision.WAIT) {
            try {
                this.time.sleep(Duration.ofNanos(claimWaitNanos()));
            }
            catch (InterruptedException ex) {
                interrupted(ExecutionStatus.REJECTED, ex);
                return false;
            }
        }
        return decision == IdempotencyClaim.Decision.CLAIMED;
    }

    /**
     * Takes on a call without per-call state before its first attempt, which began once
     * the guards admitted it and was recorded by them, from the retry stage's decision on
     * that attempt: its failure, or the retry stage's judgement of its value (the
     * policy's result predicate is asked once per attempt).
     */
    private ExecutionResult<T> afterFirstAttempt(long start, @Nullable RuntimeException rejection,
            @Nullable Exception failure) {
        try {
            attemptBegan(start);
            retryLoop((failure != null) ? afterFailure(failure, start)
                    : this.stages.retry.afterRejection(this, rejection, start));
            fallbackStage();
        }
        catch (RuntimeException ex) {
            stop(ExecutionStatus.ERROR, ex);
        }
        return end();
    }

    /**
     * Takes on a call without per-call state whose first attempt a guard refused.
     */
    private ExecutionResult<T> rejectedAtOnce(RuntimeException rejection) {
        refused(rejection);
        try {
            retryLoop(RetryDecision.STOP);
            fallbackStage();
        }
        catch (RuntimeException ex) {
            stop(ExecutionStatus.ERROR, ex);
        }
        return end();
    }

    private ExecutionResult<T> end() {
        ExecutionResult<T> result = finish();
        if (this.error instanceof InterruptedException || this.error instanceof CallInterruptedException) {
            Thread.currentThread().interrupt();
        }
        return result;
    }

    private void retryLoop(RetryDecision first) {
        RetryDecision next = first;
        while (next instanceof RetryDecision.Retry retry) {
            long delay = retry.delayNanos();
            try {
                if (delay > 0) {
                    this.time.sleep(Duration.ofNanos(delay));
                }
                else if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
            catch (InterruptedException ex) {
                interrupted(ExecutionStatus.ERROR, ex);
                break;
            }
            if (pastDeadline()) {
                break;
            }
            next = attempt();
        }
        retryStageEnded();
    }

    private RetryDecision attempt() {
        if (this.stages.hedging != null) {
            return raced(new SyncHedges<T>(this.stages, this.context, this.action, this.deadlineNanos).run());
        }
        if (!permitted() || this.stages.retry.admittedPastDeadline(this)) {
            return RetryDecision.STOP;
        }
        long limit = attemptLimitNanos();
        AttemptTimer timer = null;
        ScheduledTask timerTask = null;
        if (limit > 0) {
            timer = new AttemptTimer(Thread.currentThread());
            try {
                timerTask = this.time.schedule(timer, Duration.ofNanos(limit));
            }
            catch (RuntimeException ex) {
                this.pass.abandon();
                stop(ExecutionStatus.ERROR, ex);
                return RetryDecision.STOP;
            }
        }
        long start = beginAttempt();
        T result;
        try {
            result = invoke(start, limit, timer, timerTask);
        }
        catch (Exception ex) {
            this.pass.failed(this.time.nanoTime() - start, ex);
            return afterFailure(ex, start);
        }
        catch (Throwable ex) {
            this.pass.failed(this.time.nanoTime() - start, ex);
            throw ex;
        }
        ResultPredicateException judged = valueProduced(start, result);
        return (judged != null) ? this.stages.retry.afterRejection(this, judged, start) : afterValue(result, start);
    }

    /**
     * Runs the action, timed by the attempt's timer if it has one. An attempt that took
     * its whole limit is a timeout whatever it returned or threw, even when the timer
     * fired late.
     */
    private @Nullable T invoke(long start, long limit, @Nullable AttemptTimer timer, @Nullable ScheduledTask timerTask)
            throws Exception {
        if (timer == null || timerTask == null) {
            return this.action.call();
        }
        T result;
        try {
            result = this.action.call();
        }
        catch (Exception ex) {
            if (!inTime(start, limit, timer, timerTask)) {
                AttemptTimeoutException timeout = own(attemptTimeout(limit));
                timeout.initCause(ex);
                throw timeout;
            }
            throw ex;
        }
        catch (Throwable ex) {
            timer.finish();
            timerTask.cancel();
            throw ex;
        }
        if (!inTime(start, limit, timer, timerTask)) {
            throw own(attemptTimeout(limit));
        }
        return result;
    }

    private boolean inTime(long start, long limit, AttemptTimer timer, ScheduledTask timerTask) {
        timerTask.cancel();
        boolean timerSilent = timer.finish();
        return timerSilent && this.time.nanoTime() - start < limit;
    }

    private void fallbackStage() {
        if (servedLastGood()) {
            return;
        }
        int index = nextFallback(0);
        while (index >= 0) {
            try {
                fallbackSucceeded(index, fallbackHandler(index).apply(this.error, this.context));
                return;
            }
            catch (Error ex) {
                throw ex;
            }
            catch (Throwable ex) {
                fallbackFailed(index, ex);
            }
            index = nextFallback(index + 1);
        }
    }

}
