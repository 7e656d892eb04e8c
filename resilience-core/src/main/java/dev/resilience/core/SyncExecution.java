package dev.resilience.core;

import java.time.Duration;
import java.util.concurrent.Callable;

import dev.resilience.core.time.ScheduledTask;
import org.jspecify.annotations.Nullable;

/**
 * One synchronous call: every attempt runs on the caller's thread, so that thread-bound
 * state such as a transaction is the caller's, and every wait blocks it.
 *
 * <p>An attempt timeout is a timer that only interrupts the caller's thread; an attempt that
 * outlives its timeout is a timeout whatever it returns. An interruption from anyone else, of
 * an attempt or of a wait, ends the call at once, and the thread's interrupt flag is set again
 * when it returns. An {@link Error} is never retried nor handed to a fallback: it is thrown as
 * it is, after the claim and the breaker's permit are settled.
 *
 * @param <T> the type of the call's value
 */
final class SyncExecution<T> extends Execution<T> {

    private final Callable<? extends T> action;

    SyncExecution(ResiliencePipeline pipeline, CallContext context, Callable<? extends T> action, long startNanos) {
        super(pipeline, context, startNanos);
        this.action = action;
    }

    ExecutionResult<T> run() {
        try {
            if (claimKey()) {
                retryStage();
                fallbackStage();
            }
        }
        catch (RuntimeException ex) {
            stop(ExecutionStatus.ERROR, ex);
        }
        finally {
            settleClaim();
            releasePermit();
        }
        return end();
    }

    private boolean claimKey() {
        long next;
        while ((next = claim()) >= 0) {
            try {
                this.time.sleep(Duration.ofNanos(next));
            }
            catch (InterruptedException ex) {
                interrupted(ExecutionStatus.REJECTED, ex);
                return false;
            }
        }
        return next == CLAIMED;
    }

    /**
     * Continues a call whose first attempt, made without this object, failed.
     * @param attemptStart when that attempt started
     * @param failure what it threw, already recorded by the breaker
     * @return the complete account of the call
     */
    ExecutionResult<T> resumeAfter(long attemptStart, Throwable failure) {
        try {
            attemptBegan(attemptStart);
            retryLoop(afterFailure(failure, attemptStart));
            fallbackStage();
        }
        catch (RuntimeException ex) {
            stop(ExecutionStatus.ERROR, ex);
        }
        return end();
    }

    /**
     * Continues a call whose first attempt the breaker refused.
     * @param rejection the breaker's refusal
     * @return the complete account of the call
     */
    ExecutionResult<T> resumeRejected(RuntimeException rejection) {
        stop(ExecutionStatus.REJECTED, rejection);
        retryStageEnded();
        try {
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

    private void retryStage() {
        startRetryStage();
        retryLoop(attempt());
    }

    private void retryLoop(long firstDelay) {
        long delay = firstDelay;
        while (delay >= 0) {
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
            delay = attempt();
        }
        retryStageEnded();
    }

    private long attempt() {
        long limit = attemptLimitNanos();
        if (!permitted()) {
            return STOP;
        }
        AttemptTimer timer = null;
        ScheduledTask timerTask = null;
        if (limit > 0) {
            timer = new AttemptTimer(Thread.currentThread());
            try {
                timerTask = this.time.schedule(timer, Duration.ofNanos(limit));
            }
            catch (RuntimeException ex) {
                releasePermit();
                stop(ExecutionStatus.ERROR, ex);
                return STOP;
            }
        }
        long start = beginAttempt();
        T result;
        try {
            result = invoke(start, limit, timer, timerTask);
        }
        catch (Exception ex) {
            recordError(this.time.nanoTime() - start, ex);
            return afterFailure(ex, start);
        }
        catch (Throwable ex) {
            recordError(this.time.nanoTime() - start, ex);
            throw ex;
        }
        recordSuccess(this.time.nanoTime() - start);
        return afterValue(result, start);
    }

    /**
     * Runs the action, timed by the attempt's timer if it has one. An attempt that took its
     * whole limit is a timeout whatever it returned or threw, even when the timer fired late.
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
