package dev.resilience.core;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;

import dev.resilience.core.time.ScheduledTask;
import org.jspecify.annotations.Nullable;

/**
 * The tries of a synchronous hedged attempt: the caller's thread runs the first, each
 * hedge runs on the pipeline's executor, and each passes the guards and its attempt
 * timeout on its own thread. A try is stopped by interrupting its thread (an
 * {@link AttemptTimer}, shared with its timeout, so no stray interrupt stays behind). The
 * caller then waits, without spinning, for the race to be decided; an interrupt of that
 * wait stops every try and ends the call as an interrupted wait does. A hedge's thread
 * interrupted by anyone but the race (an executor shutting down), in its action or while
 * it waits for a guard's pass, keeps its interrupt flag.
 *
 * @param <T> the type of the attempt's value
 */
final class SyncHedges<T> {

    private final Stages stages;

    private final Callable<? extends T> action;

    private final long deadlineNanos;

    private final HedgeRace<T> race;

    SyncHedges(Stages stages, CallContext context, Callable<? extends T> action, long deadlineNanos) {
        this.stages = stages;
        this.action = action;
        this.deadlineNanos = deadlineNanos;
        this.race = new HedgeRace<>(stages, context, this::startHedge);
    }

    /**
     * Runs the race: the first try on this thread, then waits for the race's outcome.
     * @return the outcome
     */
    RaceOutcome<T> run() {
        HedgeTry first = this.race.first();
        AttemptTimer canceller = new AttemptTimer(Thread.currentThread());
        this.race.cancelWith(first, canceller);
        runTry(first, canceller);
        try {
            return this.race.outcome().get();
        }
        catch (InterruptedException ex) {
            this.race.cancelAll();
            return this.race.interrupted(ex);
        }
        catch (ExecutionException | CancellationException ex) {
            throw new IllegalStateException("A hedged attempt of '" + this.stages.name + "' ended without an outcome",
                    ex);
        }
    }

    private void startHedge(HedgeTry hedge) {
        HandedTask.handTo(this.stages.executor, this.race, hedge, () -> {
            AttemptTimer canceller = new AttemptTimer(Thread.currentThread());
            if (!this.race.cancelWith(hedge, canceller)) {
                this.race.refused(hedge, new CancellationException("The hedged attempt was decided"));
                return;
            }
            runTry(hedge, canceller);
        });
    }

    private void runTry(HedgeTry attempt, AttemptTimer canceller) {
        Object pass;
        try {
            pass = this.stages.guards.admit();
        }
        catch (RuntimeException ex) {
            boolean silent = canceller.finish();
            if (silent && ex instanceof CallInterruptedException && attempt.index > 0) {
                Thread.currentThread().interrupt();
            }
            this.race.refused(attempt, ex);
            return;
        }
        if (this.stages.retry.passed(this.deadlineNanos)) {
            canceller.finish();
            this.stages.guards.abandoned(pass);
            this.race.admittedPastDeadline(attempt);
            return;
        }
        long start = this.stages.time.nanoTime();
        if (!this.race.admitted(attempt, pass, start)) {
            canceller.finish();
            return;
        }
        long limit = this.stages.timeout.limitNanos(this.deadlineNanos);
        ScheduledTask timeout = null;
        if (limit > 0) {
            try {
                timeout = this.stages.time.schedule(canceller, Duration.ofNanos(limit));
            }
            catch (RuntimeException ex) {
                canceller.finish();
                this.race.unrun(attempt, ex);
                return;
            }
        }
        T value = null;
        Throwable failure = null;
        try {
            value = this.action.call();
        }
        catch (Throwable ex) {
            failure = ex;
        }
        ended(attempt, canceller, timeout, start, limit, value, failure);
    }

    /**
     * Reports a try's outcome. A try whose thread was interrupted by its timeout or by
     * the race, or that took its whole limit, is a timeout (the race abandons a loser's
     * pass whatever it reports).
     */
    private void ended(HedgeTry attempt, AttemptTimer canceller, @Nullable ScheduledTask timeout, long start,
            long limit, @Nullable T value, @Nullable Throwable failure) {
        if (timeout != null) {
            timeout.cancel();
        }
        boolean silent = canceller.finish();
        if (limit > 0 && (!silent || this.stages.time.nanoTime() - start >= limit)) {
            AttemptTimeoutException timedOut = this.stages.timeout.timeout(limit);
            if (failure != null) {
                timedOut.initCause(failure);
            }
            this.race.failed(attempt, timedOut, true, false);
            return;
        }
        if (!silent) {
            this.race.failed(attempt, new CancellationException("Outrun by another try"), false, false);
            return;
        }
        if (failure == null) {
            this.race.succeeded(attempt, value);
            return;
        }
        boolean interrupted = failure instanceof InterruptedException;
        if (interrupted && attempt.index > 0) {
            Thread.currentThread().interrupt();
        }
        this.race.failed(attempt, failure, false, failure instanceof Error || (interrupted && attempt.index == 0));
    }

}
