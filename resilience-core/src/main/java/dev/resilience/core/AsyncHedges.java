package dev.resilience.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.resilience.core.time.ScheduledTask;
import org.jspecify.annotations.Nullable;

/**
 * The tries of an asynchronous hedged attempt: the first starts on the thread of the
 * call's step, each hedge on the pipeline's executor, to which the hedge timer hands it
 * (the timer thread never starts a try, nor cancels one). Each try passes the guards
 * without blocking and has its own attempt timeout, whose timer hands the cancellation of
 * the try's stage to the executor; the outcome of a try whose stage completes later is
 * handed to the executor too, so the guards never hear it on the thread completing the
 * stage. A step the executor drops unrun still settles what it held: a pass that came is
 * given back, a timed-out try's stage cancelled, an outcome reported. A try is stopped by
 * cancelling its stage, or its wait for a pass; cancelling the race's outcome stops every
 * try.
 *
 * @param <T> the type of the attempt's value
 */
final class AsyncHedges<T> {

    private final Stages stages;

    private final Supplier<? extends CompletionStage<? extends T>> action;

    private final long deadlineNanos;

    private final HedgeRace<T> race;

    AsyncHedges(Stages stages, CallContext context, Supplier<? extends CompletionStage<? extends T>> action,
            long deadlineNanos) {
        this.stages = stages;
        this.action = action;
        this.deadlineNanos = deadlineNanos;
        this.race = new HedgeRace<>(stages, context, this::startHedge);
    }

    /**
     * Starts the race's first try on this thread.
     * @return the race's outcome; cancelling it stops every try
     */
    CompletableFuture<RaceOutcome<T>> start() {
        CompletableFuture<RaceOutcome<T>> outcome = this.race.outcome();
        outcome.whenComplete((decided, failure) -> {
            if (failure != null) {
                this.race.cancelAll();
            }
        });
        admit(this.race.first());
        return outcome;
    }

    private void startHedge(HedgeTry hedge) {
        HandedTask.handTo(this.stages.executor, this.race, hedge, () -> admit(hedge));
    }

    private void admit(HedgeTry attempt) {
        CompletableFuture<@Nullable Object> admission;
        try {
            admission = this.stages.guards.admitAsync();
        }
        catch (RuntimeException ex) {
            admission = CompletableFuture.failedFuture(ex);
        }
        if (admission.isDone()) {
            admitted(attempt, admission);
            return;
        }
        CompletableFuture<@Nullable Object> waited = admission;
        if (!this.race.cancelWith(attempt, () -> Futures.cancelQuietly(waited))) {
            Futures.cancelQuietly(waited);
        }
        waited.whenComplete((pass, failure) -> handOff(attempt, () -> admitted(attempt, waited), (dropped) -> {
            if (failure == null) {
                this.stages.guards.abandoned(pass);
            }
            this.race.refused(attempt, dropped);
        }));
    }

    private void admitted(HedgeTry attempt, CompletableFuture<@Nullable Object> admission) {
        Throwable refusal = Futures.failureOf(admission);
        if (refusal != null) {
            this.race.refused(attempt, Futures.unwrap(refusal));
            return;
        }
        @Nullable Object pass = admission.join();
        if (this.stages.retry.passed(this.deadlineNanos)) {
            this.stages.guards.abandoned(pass);
            this.race.admittedPastDeadline(attempt);
            return;
        }
        long start = this.stages.time.nanoTime();
        if (!this.race.admitted(attempt, pass, start)) {
            return;
        }
        long limit = this.stages.timeout.limitNanos(this.deadlineNanos);
        CompletableFuture<? extends T> stage = startAttempt();
        if (!this.race.cancelWith(attempt, () -> Futures.cancelQuietly(stage))) {
            Futures.cancelQuietly(stage);
        }
        if (stage.isDone()) {
            ended(attempt, start, limit, this.stages.time.nanoTime(), Futures.valueOf(stage), Futures.failureOf(stage));
            return;
        }
        ScheduledTask timeout = null;
        if (limit > 0) {
            long left = limit - (this.stages.time.nanoTime() - start);
            Runnable timedOut = () -> {
                timedOut(attempt, limit, null);
                Futures.cancelQuietly(stage);
            };
            try {
                timeout = this.stages.time.scheduleHandOff(
                        () -> handOff(attempt, timedOut, (dropped) -> timedOut.run()),
                        Duration.ofNanos(Math.max(1, left)));
            }
            catch (RuntimeException ex) {
                Futures.cancelQuietly(stage);
                this.race.unrun(attempt, ex);
                return;
            }
        }
        ScheduledTask timer = timeout;
        stage.whenComplete((value, failure) -> {
            if (timer != null) {
                timer.cancel();
            }
            long endedAt = this.stages.time.nanoTime();
            Runnable outcome = () -> ended(attempt, start, limit, endedAt, value, failure);
            handOff(attempt, outcome, (dropped) -> outcome.run());
        });
    }

    /**
     * Reports a try's outcome to its race, on a step of the try, never on the thread that
     * completed its stage: a try whose stage completed once its limit had passed is a
     * timeout.
     */
    private void ended(HedgeTry attempt, long start, long limit, long endedAt, @Nullable T value,
            @Nullable Throwable failure) {
        if (limit > 0 && endedAt - start >= limit) {
            timedOut(attempt, limit, failure);
        }
        else if (failure == null) {
            this.race.succeeded(attempt, value);
        }
        else {
            Throwable cause = Futures.unwrap(failure);
            this.race.failed(attempt, cause, false, cause instanceof Error);
        }
    }

    private void timedOut(HedgeTry attempt, long limit, @Nullable Throwable failure) {
        AttemptTimeoutException timeout = this.stages.timeout.timeout(limit);
        if (failure != null) {
            timeout.initCause(Futures.unwrap(failure));
        }
        this.race.failed(attempt, timeout, true, false);
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

    /**
     * Runs a step of a try on the executor, or on the engine's own pool when the executor
     * refuses it, never on the thread of a timer, of a guard's wait or of a stage's
     * completion; a step that throws settles the try, and one that the executor drops
     * unrun runs {@code dropped} in its place, which settles what the step held.
     */
    private void handOff(HedgeTry attempt, Runnable step, Consumer<RuntimeException> dropped) {
        try {
            HandedTask.handTo(this.stages.executor, this.race, attempt, step, dropped);
        }
        catch (RuntimeException refused) {
            try {
                HandedTask.handTo(DefaultExecutor.get(), this.race, attempt, step, dropped);
            }
            catch (RuntimeException ex) {
                step.run();
            }
        }
    }

}
