package dev.resilience.core;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.resilience.core.time.ScheduledTask;
import org.jspecify.annotations.Nullable;

/**
 * One asynchronous call: attempts are started by the action's supplier, and no thread is
 * blocked while the call waits.
 *
 * <p>
 * The first step runs on the caller's thread. A wait (backoff, a key in progress) is a
 * timer on the time source; when it fires, the next step is handed to the pipeline's
 * executor, as is the handling of a stage that completes later: the timer thread and the
 * threads completing the stages never run an attempt, a fallback, a store call or a
 * listener. Stages that are already complete are handled in a loop on the same thread, so
 * immediate retries do not grow the stack. An attempt timeout completes the attempt's
 * outcome on the timer and cancels the stage on the executor; a late value is discarded.
 *
 * <p>
 * Cancelling (or otherwise completing) the returned future stops the call: no further
 * attempt or fallback starts, the awaited stage is cancelled, a wait is cut short, the
 * idempotency claim is released, and the call ends with status
 * {@link ExecutionStatus#ERROR} and a {@link CancellationException}, which listeners are
 * told of. An {@link Error} is never retried nor handed to a fallback: the returned
 * future completes exceptionally with it. Whatever else fails in the machinery (a null
 * stage, a rejected timer or executor task) ends the call with status ERROR: the returned
 * future always completes, and a permit or claim taken is always given back or recorded.
 *
 * <p>
 * Longer than 400 lines because it holds both the machinery of asynchronous steps
 * (submission, hand-offs, cancellation, endings) and the attempt and fallback steps that
 * carry out the stages' decisions; the two are to be split.
 *
 * @param <T> the type of the call's value
 */
final class AsyncExecution<T> extends Execution<T> {

    private final Supplier<? extends CompletionStage<? extends T>> action;

    private final Executor executor;

    private final CompletableFuture<ExecutionResult<T>> result = new CompletableFuture<>();

    private final AtomicBoolean ended = new AtomicBoolean();

    private volatile boolean cancelled;

    private volatile @Nullable Wait pendingWait;

    private volatile @Nullable CompletableFuture<?> awaited;

    AsyncExecution(Stages stages, CallContext context, Supplier<? extends CompletionStage<? extends T>> action) {
        super(stages, context, stages.time.nanoTime());
        this.action = action;
        this.executor = stages.executor;
    }

    CompletableFuture<ExecutionResult<T>> start() {
        this.result.whenComplete((outcome, failure) -> {
            if (!this.ended.get()) {
                cancel();
            }
        });
        run(this::claimKey);
        return this.result;
    }

    /**
     * Runs one step on this thread; whatever escapes it ends the call.
     */
    private void run(Runnable step) {
        guard(() -> {
            if (this.cancelled) {
                endCancelled();
            }
            else {
                step.run();
            }
        });
    }

    /**
     * Hands a step to the executor. When the executor refuses it (shut down, saturated),
     * the call ends instead, on the engine's own pool rather than on this thread, which
     * may be the timer's.
     * @param step the next step, which ends the call on whatever escapes it
     * @param ending what ends the call when the executor refuses the step
     */
    private void submit(Runnable step, Consumer<RuntimeException> ending) {
        try {
            this.executor.execute(new Step(step, ending));
        }
        catch (RuntimeException refused) {
            endOnOwnPool(ending, refused);
        }
    }

    private void endOnOwnPool(Consumer<RuntimeException> ending, RuntimeException refused) {
        Runnable end = () -> guard(() -> ending.accept(refused));
        try {
            DefaultExecutor.get().execute(end);
        }
        catch (RuntimeException ex) {
            end.run();
        }
    }

    /**
     * Hands the next step to the executor; it ends the call instead if the call was
     * cancelled meanwhile.
     */
    private void handOver(Runnable step, Consumer<RuntimeException> ending) {
        submit(() -> run(step), ending);
    }

    private void handOver(Runnable step) {
        handOver(step, this::endRefused);
    }

    /**
     * Runs a step that takes an outcome which has already arrived: it runs even when the
     * call was cancelled meanwhile, so that a value already produced is kept, and its
     * permit and claim settled with it.
     */
    private void handOverOutcome(Runnable step, Consumer<RuntimeException> ending) {
        submit(() -> guard(step), ending);
    }

    private void guard(Runnable step) {
        try {
            step.run();
        }
        catch (Error ex) {
            fatal(ex);
        }
        catch (RuntimeException ex) {
            stop(ExecutionStatus.ERROR, ex);
            end();
        }
    }

    private void endRefused(RuntimeException refused) {
        stop(ExecutionStatus.ERROR, refused);
        end();
    }

    private void waitThen(Runnable step, long delayNanos) {
        Wait wait = new Wait(step);
        this.pendingWait = wait;
        try {
            wait.scheduled(this.time.scheduleHandOff(wait, Duration.ofNanos(delayNanos)));
        }
        catch (RuntimeException ex) {
            stop(ExecutionStatus.ERROR, ex);
            end();
            return;
        }
        if (this.cancelled && wait.cancel()) {
            endCancelled();
        }
    }

    private void claimKey() {
        switch (claim()) {
            case WAIT -> waitThen(this::claimKey, claimWaitNanos());
            case CLAIMED -> {
                startRetryStage(this.time.nanoTime());
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
            if (this.cancelled) {
                endCancelled();
                return;
            }
            if (this.attempts > 0 && pastDeadline()) {
                retryStageEnded();
                fallbacks(0);
                return;
            }
            if (!permitted()) {
                retryStageEnded();
                fallbacks(0);
                return;
            }
            long limit = attemptLimitNanos();
            long start = beginAttempt();
            CompletableFuture<? extends T> stage = startAttempt();
            RetryDecision next;
            if (limit > 0 && this.time.nanoTime() - start >= limit) {
                Futures.cancelQuietly(stage);
                next = attempted(null, own(attemptTimeout(limit)), start);
            }
            else if (!stage.isDone()) {
                await(new PendingAttempt(stage, start, limit));
                return;
            }
            else {
                next = attempted(Futures.valueOf(stage), Futures.failureOf(stage), start);
            }
            if (!(next instanceof RetryDecision.Retry retry) || retry.delayNanos() != 0) {
                continueAfter(next);
                return;
            }
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
        this.awaited = pending.stage;
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
        if (this.cancelled) {
            Futures.cancelQuietly(pending.stage);
        }
    }

    /**
     * Takes the outcome of an awaited attempt. A value is kept even when the call was
     * cancelled meanwhile; a failure of a cancelled call gives the permit back and ends
     * it.
     */
    private void attemptEnded(@Nullable T value, @Nullable Throwable failure, long start, boolean timedOut) {
        if (failure != null && this.cancelled) {
            releasePermit();
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
            recordSuccess(duration);
            succeed(value);
        }
        else {
            Throwable cause = Futures.unwrap(failure);
            recordError(duration, cause);
            stop(ExecutionStatus.ERROR, refused);
        }
        end();
    }

    private RetryDecision attempted(@Nullable T value, @Nullable Throwable failure, long start) {
        long duration = this.time.nanoTime() - start;
        if (failure == null) {
            recordSuccess(duration);
            return afterValue(value, start);
        }
        Throwable cause = Futures.unwrap(failure);
        recordError(duration, cause);
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
        int index = nextFallback(from);
        while (index >= 0) {
            if (this.cancelled) {
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
        this.awaited = future;
        future.whenComplete((fallbackValue, failure) -> handOverOutcome(() -> {
            if (failure != null && this.cancelled) {
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
        if (this.cancelled) {
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

    private void end() {
        if (!this.ended.compareAndSet(false, true)) {
            return;
        }
        try {
            releasePermit();
            settleClaim();
            this.result.complete(finish());
        }
        catch (RuntimeException | Error ex) {
            this.result.completeExceptionally(ex);
        }
    }

    private void endCancelled() {
        stop(ExecutionStatus.ERROR, own(new CancellationException("Call of '" + this.stages.name + "' was cancelled")));
        end();
    }

    private void fatal(Error error) {
        if (!this.ended.compareAndSet(false, true)) {
            return;
        }
        stop(ExecutionStatus.ERROR, error);
        try {
            releasePermit();
            settleClaim();
        }
        finally {
            this.result.completeExceptionally(error);
        }
    }

    /**
     * Stops the call after its returned future was completed by someone else: runs on
     * that someone's thread, so it only cuts the current wait short and cancels the
     * awaited stage on the executor; the step that notices ends the call.
     */
    private void cancel() {
        this.cancelled = true;
        Wait wait = this.pendingWait;
        if (wait != null && wait.cancel()) {
            handOver(this::endCancelled, (refused) -> endCancelled());
        }
        CompletableFuture<?> stage = this.awaited;
        if (stage != null && !stage.isDone()) {
            try {
                this.executor.execute(() -> Futures.cancelQuietly(stage));
            }
            catch (RuntimeException ex) {
                Futures.cancelQuietly(stage);
            }
        }
    }

    /**
     * A step handed to the executor. It is a {@link FutureTask}, so that an executor shut
     * down with queued tasks, which cancels them as Spring's task executors do, ends the
     * call instead of leaving its future incomplete.
     */
    private final class Step extends FutureTask<Void> {

        private final Consumer<RuntimeException> ending;

        private final AtomicBoolean started = new AtomicBoolean();

        Step(Runnable step, Consumer<RuntimeException> ending) {
            super(step, null);
            this.ending = ending;
        }

        @Override
        public void run() {
            if (this.started.compareAndSet(false, true)) {
                super.run();
            }
        }

        @Override
        protected void done() {
            if (isCancelled() && this.started.compareAndSet(false, true)) {
                endOnOwnPool(this.ending, new RejectedExecutionException(
                        "The executor of '" + AsyncExecution.this.stages.name + "' dropped a queued step"));
            }
        }

    }

    /**
     * A wait of the call: fired by the timer, or cut short by a cancellation; whichever
     * comes first takes it.
     */
    private final class Wait implements Runnable {

        private final Runnable step;

        private final AtomicBoolean taken = new AtomicBoolean();

        private volatile @Nullable ScheduledTask task;

        Wait(Runnable step) {
            this.step = step;
        }

        void scheduled(ScheduledTask scheduled) {
            this.task = scheduled;
            if (this.taken.get()) {
                scheduled.cancel();
            }
        }

        @Override
        public void run() {
            if (this.taken.compareAndSet(false, true)) {
                handOver(this.step);
            }
        }

        boolean cancel() {
            if (!this.taken.compareAndSet(false, true)) {
                return false;
            }
            ScheduledTask scheduled = this.task;
            if (scheduled != null) {
                scheduled.cancel();
            }
            return true;
        }

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
