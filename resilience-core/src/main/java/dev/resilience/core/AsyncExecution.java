package dev.resilience.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

import dev.resilience.core.time.ScheduledTask;
import org.jspecify.annotations.Nullable;

/**
 * One asynchronous call: attempts are started by the action's supplier, and every wait is
 * scheduled on the time source instead of blocking a thread. Breaker outcomes are recorded
 * when each attempt's stage completes.
 *
 * @param <T> the type of the call's value
 */
final class AsyncExecution<T> extends Execution<T> {

    private final Supplier<? extends CompletionStage<? extends T>> action;

    private final CompletableFuture<ExecutionResult<T>> result = new CompletableFuture<>();

    AsyncExecution(ResiliencePipeline pipeline, CallContext context,
            Supplier<? extends CompletionStage<? extends T>> action) {
        super(pipeline, context, pipeline.timeSource().nanoTime());
        this.action = action;
    }

    CompletableFuture<ExecutionResult<T>> start() {
        claimKey();
        return this.result;
    }

    private void claimKey() {
        try {
            long next = claim();
            if (next >= 0) {
                this.time.schedule(this::claimKey, Duration.ofNanos(next));
            }
            else if (next == CLAIMED) {
                startRetryStage();
                attempt();
            }
            else {
                complete();
            }
        }
        catch (Throwable ex) {
            fail(ex);
        }
    }

    private void attempt() {
        if (!permitted()) {
            retryStageEnded();
            fallback(0);
            return;
        }
        long start = beginAttempt();
        CompletableFuture<T> outcome = new CompletableFuture<>();
        long limit = attemptLimitNanos();
        CompletionStage<? extends T> stage;
        try {
            stage = this.action.get();
        }
        catch (Throwable ex) {
            attempted(null, ex, start, null);
            return;
        }
        ScheduledTask timer = (limit > 0) ? this.time.schedule(() -> {
            if (outcome.completeExceptionally(attemptTimeout(limit))) {
                cancel(stage);
            }
        }, Duration.ofNanos(limit)) : null;
        stage.whenComplete((value, failure) -> {
            if (failure == null) {
                outcome.complete(value);
            }
            else {
                outcome.completeExceptionally(failure);
            }
        });
        outcome.whenComplete((value, failure) -> attempted(value, failure, start, timer));
    }

    private void attempted(@Nullable T value, @Nullable Throwable failure, long start, @Nullable ScheduledTask timer) {
        try {
            if (timer != null) {
                timer.cancel();
            }
            long duration = this.time.nanoTime() - start;
            long delay;
            if (failure == null) {
                recordSuccess(duration);
                delay = afterValue(value, start);
            }
            else {
                Throwable cause = unwrap(failure);
                recordError(duration, cause);
                if (cause instanceof VirtualMachineError fatal) {
                    throw fatal;
                }
                delay = afterFailure(cause, start);
            }
            if (delay == STOP) {
                retryStageEnded();
                fallback(0);
            }
            else if (delay == 0) {
                attempt();
            }
            else {
                this.time.schedule(this::attempt, Duration.ofNanos(delay));
            }
        }
        catch (Throwable ex) {
            fail(ex);
        }
    }

    private void fallback(int from) {
        int index = nextFallback(from);
        if (index < 0) {
            complete();
            return;
        }
        Object fallbackValue;
        try {
            fallbackValue = fallbackHandler(index).apply(this.error, this.context);
        }
        catch (VirtualMachineError ex) {
            fail(ex);
            return;
        }
        catch (Throwable ex) {
            fallbackFailed(index, ex);
            fallback(index + 1);
            return;
        }
        if (fallbackValue instanceof CompletionStage<?> stage) {
            stage.whenComplete((value, failure) -> {
                if (failure == null) {
                    fallbackSucceeded(index, value);
                    complete();
                }
                else {
                    fallbackFailed(index, unwrap(failure));
                    fallback(index + 1);
                }
            });
        }
        else {
            fallbackSucceeded(index, fallbackValue);
            complete();
        }
    }

    private void complete() {
        try {
            settleClaim();
            this.result.complete(finish());
        }
        catch (Throwable ex) {
            this.result.completeExceptionally(ex);
        }
    }

    private void fail(Throwable failure) {
        stop(ExecutionStatus.ERROR, failure);
        settleClaim();
        this.result.completeExceptionally(failure);
    }

    private static void cancel(CompletionStage<?> stage) {
        try {
            stage.toCompletableFuture().cancel(true);
        }
        catch (UnsupportedOperationException ex) {
            // a stage that cannot be cancelled runs on; its outcome is no longer awaited
        }
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable current = failure;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }
}
