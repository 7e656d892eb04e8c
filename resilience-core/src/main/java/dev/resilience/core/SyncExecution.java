package dev.resilience.core;

import java.time.Duration;
import java.util.concurrent.Callable;

import dev.resilience.core.time.ScheduledTask;
import org.jspecify.annotations.Nullable;

/**
 * One synchronous call: every attempt runs on the caller's thread, so that thread-bound
 * state such as a transaction is the caller's, and every wait blocks it.
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
        finally {
            settleClaim();
        }
        return finish();
    }

    private boolean claimKey() {
        long next;
        while ((next = claim()) >= 0) {
            try {
                this.time.sleep(Duration.ofNanos(next));
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                stop(ExecutionStatus.REJECTED, ex);
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
        attemptBegan(attemptStart);
        retryLoop(afterFailure(failure, attemptStart));
        fallbackStage();
        return finish();
    }

    /**
     * Continues a call whose first attempt the breaker refused.
     * @param rejection the breaker's refusal
     * @return the complete account of the call
     */
    ExecutionResult<T> resumeRejected(RuntimeException rejection) {
        stop(ExecutionStatus.REJECTED, rejection);
        retryStageEnded();
        fallbackStage();
        return finish();
    }

    private void retryStage() {
        startRetryStage();
        retryLoop(attempt());
    }

    private void retryLoop(long firstDelay) {
        long delay = firstDelay;
        while (delay >= 0) {
            if (delay > 0) {
                try {
                    this.time.sleep(Duration.ofNanos(delay));
                }
                catch (InterruptedException ex) {
                    interrupted(ex);
                    break;
                }
            }
            delay = attempt();
        }
        retryStageEnded();
    }

    private long attempt() {
        if (!permitted()) {
            return STOP;
        }
        long start = beginAttempt();
        T result;
        try {
            result = invoke();
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

    private @Nullable T invoke() throws Exception {
        long limit = attemptLimitNanos();
        if (limit == 0) {
            return this.action.call();
        }
        AttemptTimer timer = new AttemptTimer(Thread.currentThread());
        ScheduledTask task = this.time.schedule(timer, Duration.ofNanos(limit));
        try {
            T result = this.action.call();
            timer.finish();
            return result;
        }
        catch (Exception ex) {
            if (!timer.finish()) {
                AttemptTimeoutException timeout = attemptTimeout(limit);
                timeout.initCause(ex);
                throw timeout;
            }
            throw ex;
        }
        finally {
            task.cancel();
        }
    }

    private void fallbackStage() {
        int index = nextFallback(0);
        while (index >= 0) {
            try {
                fallbackSucceeded(index, fallbackHandler(index).apply(this.error, this.context));
                return;
            }
            catch (VirtualMachineError ex) {
                throw ex;
            }
            catch (Throwable ex) {
                fallbackFailed(index, ex);
            }
            index = nextFallback(index + 1);
        }
    }
}
