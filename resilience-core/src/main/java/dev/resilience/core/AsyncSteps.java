package dev.resilience.core;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.resilience.core.time.ScheduledTask;
import org.jspecify.annotations.Nullable;

/**
 * The machinery of an asynchronous call's steps, below the steps themselves
 * ({@link AsyncExecution}): where a step runs, how it is handed to the executor or to a
 * timer, how the call is cancelled, and how it ends, exactly once.
 *
 * <p>
 * The first step runs on the caller's thread, or on the executor for a caller that must
 * not wait for a store. A wait (backoff, a key in progress) is a timer on the time
 * source; when it fires, the next step is handed to the pipeline's executor, as is the
 * handling of a stage that completes later: the timer thread and the threads completing
 * the stages never run an attempt, a fallback, a store call or a listener. Each step
 * handed over runs with what the call carries from its caller's thread
 * ({@link CallContext#carried()}); the returned future is completed after that context is
 * put back ({@link CallAccount}). When the executor refuses a step (shut down, saturated,
 * or it drops a queued one), the call ends with status ERROR on the engine's own pool;
 * whatever escapes a step ends the call, so the returned future always completes.
 *
 * <p>
 * Cancelling (or otherwise completing) the returned future cuts the current wait short
 * and cancels the awaited stage; the next step that runs ends the call with status
 * {@link ExecutionStatus#ERROR} and a {@link CancellationException}. Ending gives the
 * guards' pass back and settles the idempotency claim.
 *
 * @param <T> the type of the call's value
 */
abstract class AsyncSteps<T> extends Execution<T> {

    private final Executor executor;

    private final CallAccount<T> result = new CallAccount<>();

    private final AtomicBoolean ended = new AtomicBoolean();

    private volatile boolean cancelled;

    private volatile @Nullable Wait pendingWait;

    private volatile @Nullable CompletableFuture<?> awaited;

    AsyncSteps(Stages stages, CallContext context) {
        super(stages, context, stages.time.nanoTime());
        this.executor = stages.executor;
    }

    /**
     * Runs the call's first step on this thread, or hands it to the executor, which ends
     * the call as for a later step when it refuses or drops it. Only a call that has not
     * ended by then watches its future for a completion by anyone else: nobody else holds
     * the future before this returns.
     * @param first the first step
     * @param onExecutor whether the executor runs the first step
     * @return the future of the call's account, which stops the call when completed by
     * anyone else
     */
    final CompletableFuture<ExecutionResult<T>> start(Runnable first, boolean onExecutor) {
        if (onExecutor) {
            handOver(first);
        }
        else {
            run(first);
        }
        if (!this.ended.get()) {
            this.result.future().whenComplete((outcome, failure) -> {
                if (!this.ended.get()) {
                    cancel();
                }
            });
        }
        return this.result.future();
    }

    /**
     * Whether the returned future was completed by someone else; a step ends the call.
     */
    final boolean cancelled() {
        return this.cancelled;
    }

    /** Marks a stage as the one the call awaits, which a cancellation cancels. */
    final void awaiting(CompletableFuture<?> stage) {
        this.awaited = stage;
    }

    /**
     * Asks the guards to admit the next attempt, without blocking; {@link #admitted}
     * takes the answer once the future is done.
     * @return the future pass of the attempt
     */
    final CompletableFuture<@Nullable Object> admission() {
        try {
            return this.stages.guards.admitAsync();
        }
        catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    /**
     * Takes the guards' answer to {@link #admission()}: holds the pass, or ends the retry
     * stage on the refusal as a synchronous call does.
     * @param admission the answer, done
     * @return whether the attempt may run
     */
    final boolean admitted(CompletableFuture<@Nullable Object> admission) {
        Throwable failure = Futures.failureOf(admission);
        if (failure != null) {
            refused(Futures.unwrap(failure));
            return false;
        }
        this.pass.hold(admission.join());
        return true;
    }

    /**
     * Runs a hedged attempt: starts its race, and takes its outcome at once when it is
     * already decided, or on the executor once it is.
     * @param action starts one try
     * @param continueAfter carries out the retry stage's decision on an awaited race
     * @return the retry stage's decision, or {@code null} when the race is awaited
     */
    final @Nullable RetryDecision hedgedAttempt(Supplier<? extends CompletionStage<? extends T>> action,
            Consumer<RetryDecision> continueAfter) {
        CompletableFuture<RaceOutcome<T>> race = new AsyncHedges<T>(this.stages, this.context, action,
                this.deadlineNanos)
            .start();
        if (race.isDone() && !race.isCompletedExceptionally()) {
            return raced(race.join());
        }
        awaiting(race);
        race.whenComplete((outcome, failure) -> handOverOutcome(() -> {
            if (failure == null) {
                continueAfter.accept(raced(outcome));
            }
            else if (this.cancelled) {
                endCancelled();
            }
            else {
                endRefused(new IllegalStateException("A hedged attempt ended without an outcome", failure));
            }
        }, (refused) -> {
            if (outcome != null && outcome.kind() == RaceOutcome.Kind.VALUE && outcome.judged() == null) {
                attemptBegan(outcome.start());
                succeed(outcome.value());
                end();
            }
            else {
                endRefused(refused);
            }
        }));
        if (this.cancelled) {
            Futures.cancelQuietly(race);
        }
        return null;
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
            this.executor.execute(new Step(this.result.carried(this.context.carried(), step), ending));
        }
        catch (RuntimeException refused) {
            endOnOwnPool(ending, refused);
        }
    }

    private void endOnOwnPool(Consumer<RuntimeException> ending, RuntimeException refused) {
        Runnable end = this.result.carried(this.context.carried(), () -> guard(() -> ending.accept(refused)));
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
    final void handOverOutcome(Runnable step, Consumer<RuntimeException> ending) {
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
            endRefused(ex);
        }
    }

    private void endRefused(RuntimeException refused) {
        stop(ExecutionStatus.ERROR, refused);
        end();
    }

    final void waitThen(Runnable step, long delayNanos) {
        Wait wait = new Wait(step);
        this.pendingWait = wait;
        try {
            wait.scheduled(this.time.scheduleHandOff(wait, Duration.ofNanos(delayNanos)));
        }
        catch (RuntimeException ex) {
            endRefused(ex);
            return;
        }
        if (this.cancelled && wait.cancel()) {
            endCancelled();
        }
    }

    final void end() {
        if (!this.ended.compareAndSet(false, true)) {
            return;
        }
        try {
            this.pass.abandon();
            settleClaim();
            this.result.complete(finish());
        }
        catch (RuntimeException | Error ex) {
            this.result.fail(ex);
        }
    }

    final void endCancelled() {
        stop(ExecutionStatus.ERROR, own(new CancellationException("Call of '" + this.stages.name + "' was cancelled")));
        end();
    }

    private void fatal(Error error) {
        if (!this.ended.compareAndSet(false, true)) {
            return;
        }
        stop(ExecutionStatus.ERROR, error);
        try {
            this.pass.abandon();
            settleClaim();
        }
        finally {
            this.result.fail(error);
        }
    }

    /**
     * Stops the call after its returned future was completed by someone else: runs on
     * that someone's thread, so it only cuts the current wait short and cancels the
     * awaited stage on the executor; the step that notices ends the call. A cancellation
     * the executor refuses, or drops unrun, cancels the stage on the thread that refuses
     * or drops it, so that a wait for a guard's pass is still given up.
     */
    private void cancel() {
        this.cancelled = true;
        Wait wait = this.pendingWait;
        if (wait != null && wait.cancel()) {
            handOver(this::endCancelled, (refused) -> endCancelled());
        }
        CompletableFuture<?> stage = this.awaited;
        if (stage != null && !stage.isDone()) {
            Runnable cancelling = () -> Futures.cancelQuietly(stage);
            try {
                this.executor.execute(new HandedTask(CarriedStep.of(this.context.carried(), cancelling), cancelling));
            }
            catch (RuntimeException ex) {
                cancelling.run();
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
                        "The executor of '" + AsyncSteps.this.stages.name + "' dropped a queued step"));
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

}
