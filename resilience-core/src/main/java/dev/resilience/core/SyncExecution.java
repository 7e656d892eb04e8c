package dev.resilience.core;

import java.time.Duration;
import java.util.concurrent.Callable;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
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

    SyncExecution(ResiliencePipeline pipeline, CallContext context, Callable<? extends T> action) {
        super(pipeline, context);
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

    private void retryStage() {
        startRetryStage();
        long delay;
        do {
            delay = attempt();
            if (delay > 0) {
                try {
                    this.time.sleep(Duration.ofNanos(delay));
                }
                catch (InterruptedException ex) {
                    interrupted(ex);
                    break;
                }
            }
        }
        while (delay >= 0);
        retryStageEnded();
    }

    private long attempt() {
        if (!permitted()) {
            return STOP;
        }
        CircuitBreaker breaker = this.pipeline.circuitBreaker();
        long start = beginAttempt();
        T result;
        try {
            result = invoke();
        }
        catch (Exception ex) {
            if (breaker != null) {
                breaker.onError(this.time.nanoTime() - start, ex);
            }
            return afterFailure(ex, start);
        }
        catch (Throwable ex) {
            if (breaker != null) {
                breaker.onError(this.time.nanoTime() - start, ex);
            }
            throw ex;
        }
        if (breaker != null) {
            breaker.onSuccess(this.time.nanoTime() - start);
        }
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
