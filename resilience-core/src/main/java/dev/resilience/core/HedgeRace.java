package dev.resilience.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import dev.resilience.core.hedging.HedgeEvent;
import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.time.Durations;
import dev.resilience.core.time.ScheduledTask;
import org.jspecify.annotations.Nullable;

/**
 * One hedged attempt: a race of up to {@code 1 + maxHedges} tries, each with its own pass
 * of the guards, decided by the first try that succeeds: that produces a value the retry
 * policy's result predicate accepts (a value it rejects counts as a failed try, which the
 * guards still hear as a value). The first try starts at once; a hedge is due
 * {@code delay} after the first try began, and each further hedge {@code delay} after the
 * one before, while no try has won and some try is still running. The race fails when
 * every try it started has failed (with the last one's failure or rejected value), or at
 * once on an {@link Error} (a try's, or one a guard throws while it hears a try's
 * outcome, such as a result predicate's) or on an interruption of the caller.
 *
 * <p>
 * Every try's pass comes back to the guards exactly once: with its outcome while the race
 * is open, abandoned once the race is decided (a loser is never recorded as a failure). A
 * try refused by a guard does not end the race while another runs; only the first try's
 * refusal, when nothing else runs, refuses the attempt.
 *
 * <p>
 * The drivers start and stop the tries ({@link SyncHedges} on threads,
 * {@link AsyncHedges} on stages); the race only keeps score. The hedge timer only calls
 * the driver's starter, which hands the hedge to the executor. Thread-safe: a lock guards
 * the score; guards, cancellers and the outcome's dependents are never called under it.
 *
 * <p>
 * Longer than 400 lines because every way a try can end (a value, a rejected value, a
 * failure, a refusal, a dropped or broken step, an Error of a guard) changes one score
 * under one lock, which would span classes if it were split.
 *
 * @param <T> the type of the attempt's value
 */
final class HedgeRace<T> {

    private final Stages stages;

    private final long delayNanos;

    private final int maxHedges;

    private final Consumer<HedgeTry> hedgeStarter;

    private final ReentrantLock lock = new ReentrantLock();

    private final CompletableFuture<RaceOutcome<T>> outcome = new CompletableFuture<>();

    private final List<HedgeTry> running = new ArrayList<>(2);

    private int hedgesDue;

    private int hedgesStarted;

    private boolean over;

    private long firstStart;

    private final CallContext context;

    private @Nullable ScheduledTask timer;

    /** How the latest try that did not win ended: a failure or a rejected value. */
    private @Nullable RaceOutcome<T> lastLoss;

    /**
     * Creates a race.
     * @param stages the pipeline's stages, with a hedging policy
     * @param context the call's context, bound while the guards judge a value
     * @param hedgeStarter starts a due hedge without blocking: hands it to the executor,
     * and tells the race it was {@link #refused} when the executor refuses it
     */
    HedgeRace(Stages stages, CallContext context, Consumer<HedgeTry> hedgeStarter) {
        HedgingPolicy policy = stages.hedging;
        this.stages = stages;
        this.context = context;
        this.delayNanos = Durations.toNanos(policy.delay());
        this.maxHedges = policy.maxHedges();
        this.hedgeStarter = hedgeStarter;
        this.running.add(new HedgeTry(0));
    }

    /**
     * Returns what the call carries to the threads that run its hedges.
     * @return the call's carried context
     */
    CarriedContext carried() {
        return this.context.carried();
    }

    /**
     * Returns the race's outcome; cancelling it does not stop the race: the driver calls
     * {@link #cancelAll()}.
     * @return the future outcome
     */
    CompletableFuture<RaceOutcome<T>> outcome() {
        return this.outcome;
    }

    /**
     * Returns the race's first try, open from the start.
     * @return the try
     */
    HedgeTry first() {
        return this.running.get(0);
    }

    /**
     * Sets how a running try is stopped; runs nothing when the race is still open.
     * @param attempt the try
     * @param canceller stops it: interrupts its thread or cancels its stage
     * @return {@code false} if the race is already decided, in which case the canceller
     * was not kept and the try should stop at once
     */
    boolean cancelWith(HedgeTry attempt, Runnable canceller) {
        this.lock.lock();
        try {
            if (this.over || attempt.decided) {
                return false;
            }
            attempt.canceller = canceller;
            return true;
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Takes the pass the guards gave a try, which then begins.
     * @param attempt the try
     * @param pass the guards' pass
     * @param start when the try begins
     * @return {@code false} if the race was decided meanwhile: the pass was given back
     * and the try must not run
     */
    boolean admitted(HedgeTry attempt, @Nullable Object pass, long start) {
        boolean late;
        this.lock.lock();
        try {
            late = this.over || attempt.decided;
            if (late) {
                attempt.decided = true;
                this.running.remove(attempt);
            }
            else {
                attempt.pass = pass;
                attempt.admitted = true;
                attempt.start = start;
                if (attempt.index == 0) {
                    this.firstStart = start;
                    scheduleHedge();
                }
                else {
                    this.hedgesStarted++;
                }
            }
        }
        finally {
            this.lock.unlock();
        }
        if (late) {
            this.stages.guards.abandoned(pass);
        }
        return !late;
    }

    /**
     * Hears that a guard (or the executor) refused a try, which never ran. The first
     * try's refusal refuses the attempt; a hedge's ends the race only when no other try
     * runs, with the last failure.
     * @param attempt the try
     * @param refusal the refusal
     */
    void refused(HedgeTry attempt, Throwable refusal) {
        notRun(attempt, RaceOutcome.Kind.REFUSED, refusal);
    }

    /**
     * Hears that a try was admitted only after the call's deadline had passed, so it
     * never ran; the driver gave its pass back. The first try's ends the attempt, which
     * then ends the call as a TIMEOUT; a hedge's ends the race only when no other try
     * runs, with the last failure.
     * @param attempt the try
     */
    void admittedPastDeadline(HedgeTry attempt) {
        notRun(attempt, RaceOutcome.Kind.PAST_DEADLINE, null);
    }

    private void notRun(HedgeTry attempt, RaceOutcome.Kind firstTry, @Nullable Throwable refusal) {
        RaceOutcome<T> decided = null;
        this.lock.lock();
        try {
            if (attempt.decided) {
                return;
            }
            attempt.decided = true;
            this.running.remove(attempt);
            if (!this.over && (attempt.index == 0 || this.running.isEmpty())) {
                this.over = true;
                cancelTimer();
                decided = (attempt.index == 0)
                        ? new RaceOutcome<>(firstTry, null, refusal, null, false, 0, event(HedgeEvent.NONE))
                        : lastLoss();
            }
        }
        finally {
            this.lock.unlock();
        }
        if (decided != null) {
            this.outcome.complete(decided);
        }
    }

    /**
     * Hears that a try produced a value. A success, a value the retry policy's result
     * predicate accepts, wins the race, and the other tries are stopped. A value it
     * rejects is heard by the guards as a value but does not decide the race: it counts
     * as a failed try, and the race ends with it only when no other try runs. After the
     * race was decided, the try is a loser whose pass is abandoned.
     * @param attempt the try
     * @param value its value
     */
    void succeeded(HedgeTry attempt, @Nullable T value) {
        RuntimeException rejection = null;
        Error broken = null;
        try {
            rejection = this.stages.retry.rejection(this.context, value);
        }
        catch (Error ex) {
            broken = ex;
        }
        if (rejection instanceof RejectedResultException) {
            lost(attempt, RaceOutcome.loss(value, null, rejection, false), false, true);
            return;
        }
        @Nullable List<HedgeTry> losers;
        this.lock.lock();
        try {
            if (attempt.decided) {
                return;
            }
            attempt.decided = true;
            this.running.remove(attempt);
            losers = decide();
        }
        finally {
            this.lock.unlock();
        }
        if (losers == null) {
            this.stages.guards.abandoned(attempt.pass);
            return;
        }
        RaceOutcome<T> decided;
        try {
            RuntimeException judged = heardValue(attempt, value);
            decided = (broken != null) ? fatal(broken) : new RaceOutcome<>(RaceOutcome.Kind.VALUE, value, null,
                    (judged != null) ? judged : rejection, false, this.firstStart, event(attempt.index));
        }
        catch (Error ex) {
            decided = fatal(ex);
        }
        HedgeTry.stopAll(losers);
        this.outcome.complete(decided);
    }

    /**
     * Hears that a try failed. While other tries run the race goes on; when none runs, or
     * the failure is an {@link Error} or an interruption of the caller, the race fails
     * with it. After the race was decided, the try is a loser whose pass is abandoned.
     * @param attempt the try
     * @param failure what it threw
     * @param own whether the engine created the failure (an attempt timeout)
     * @param fatal whether the failure ends the race at once
     */
    void failed(HedgeTry attempt, Throwable failure, boolean own, boolean fatal) {
        lost(attempt, RaceOutcome.loss(null, failure, null, own), fatal, true);
    }

    /**
     * Hears that an admitted try could not run to an outcome for a failure of the
     * machinery (its attempt timeout could not be scheduled): its pass is given back
     * without an outcome, as an unhedged attempt's is, and the race goes on as after a
     * failure of the try.
     * @param attempt the try
     * @param failure what went wrong
     */
    void unrun(HedgeTry attempt, Throwable failure) {
        lost(attempt, RaceOutcome.loss(null, failure, null, false), false, false);
    }

    /**
     * Takes the end of a try that did not win: the race ends with it when it is fatal or
     * no other try runs; otherwise it goes on. The guards hear the try's outcome, a
     * failure or a rejected value, unless {@code heard} is {@code false}, which gives its
     * pass back; a guard's result predicate that throws on the value, or a guard's
     * {@link Error}, ends the race at once.
     */
    private void lost(HedgeTry attempt, RaceOutcome<T> loss, boolean fatal, boolean heard) {
        @Nullable List<HedgeTry> others = null;
        boolean loser;
        RaceOutcome<T> decided = null;
        this.lock.lock();
        try {
            if (attempt.decided) {
                return;
            }
            attempt.decided = true;
            this.running.remove(attempt);
            loser = this.over;
            if (!loser) {
                this.lastLoss = loss;
                if (fatal || this.running.isEmpty()) {
                    others = decide();
                    decided = lastLoss();
                }
            }
        }
        finally {
            this.lock.unlock();
        }
        if (loser) {
            this.stages.guards.abandoned(attempt.pass);
            return;
        }
        RuntimeException judged = null;
        Error broken = null;
        try {
            judged = heard(attempt, loss, heard);
        }
        catch (Error ex) {
            broken = ex;
        }
        if ((judged != null || broken != null) && others == null) {
            others = decideNow();
        }
        if (others == null) {
            return;
        }
        if (broken != null) {
            decided = fatal(broken);
        }
        else if (judged != null) {
            decided = RaceOutcome.loss(loss.value(), null, judged, false).at(this.firstStart, event(HedgeEvent.NONE));
        }
        HedgeTry.stopAll(others);
        this.outcome.complete(decided);
    }

    /** Tells the guards how a try that did not win ended; returns a value's judgement. */
    private @Nullable RuntimeException heard(HedgeTry attempt, RaceOutcome<T> loss, boolean heard) {
        if (!heard) {
            this.stages.guards.abandoned(attempt.pass);
            return null;
        }
        if (loss.failure() == null) {
            return heardValue(attempt, loss.value());
        }
        this.stages.guards.failed(attempt.pass, this.stages.guardedDuration(attempt.start), loss.failure());
        return null;
    }

    private @Nullable RuntimeException heardValue(HedgeTry attempt, @Nullable T value) {
        return this.stages.guards.succeeded(this.context, attempt.pass, this.stages.guardedDuration(attempt.start),
                value);
    }

    /**
     * Settles a try whose step threw, or which the executor dropped unrun: a failure of
     * an admitted try, a refusal of one that was not.
     * @param attempt the try
     * @param failure what went wrong
     */
    void broke(HedgeTry attempt, RuntimeException failure) {
        boolean admitted;
        this.lock.lock();
        try {
            admitted = attempt.admitted;
        }
        finally {
            this.lock.unlock();
        }
        if (admitted) {
            failed(attempt, failure, false, false);
        }
        else {
            refused(attempt, failure);
        }
    }

    /**
     * Stops every try, for a call that was cancelled or interrupted; their passes are
     * abandoned as they end.
     */
    void cancelAll() {
        @Nullable List<HedgeTry> all;
        this.lock.lock();
        try {
            all = this.over ? List.copyOf(this.running) : decide();
        }
        finally {
            this.lock.unlock();
        }
        HedgeTry.stopAll(all);
    }

    /**
     * Returns the outcome of a race whose caller was interrupted while it waited; only on
     * the caller's thread, which began the first try.
     * @param interruption the interruption
     * @return the outcome
     */
    RaceOutcome<T> interrupted(InterruptedException interruption) {
        return new RaceOutcome<>(RaceOutcome.Kind.INTERRUPTED, null, interruption, null, false, this.firstStart,
                event(HedgeEvent.NONE));
    }

    /** Returns the race's outcome when it ends with its latest loss; under the lock. */
    private RaceOutcome<T> lastLoss() {
        return this.lastLoss.at(this.firstStart, event(HedgeEvent.NONE));
    }

    /**
     * Returns the outcome of a race that an {@link Error} a guard threw while hearing a
     * try ends at once: the call rethrows it as it is.
     */
    private RaceOutcome<T> fatal(Error error) {
        return new RaceOutcome<>(RaceOutcome.Kind.FAILURE, null, error, null, false, this.firstStart,
                event(HedgeEvent.NONE));
    }

    private @Nullable List<HedgeTry> decideNow() {
        this.lock.lock();
        try {
            return decide();
        }
        finally {
            this.lock.unlock();
        }
    }

    /** Decides the race, under the lock; returns the tries to stop, or {@code null}. */
    private @Nullable List<HedgeTry> decide() {
        if (this.over) {
            return null;
        }
        this.over = true;
        cancelTimer();
        return List.copyOf(this.running);
    }

    private HedgeEvent event(int winner) {
        return new HedgeEvent(winner, this.hedgesStarted);
    }

    private void scheduleHedge() {
        if (this.hedgesDue >= this.maxHedges) {
            return;
        }
        try {
            this.timer = this.stages.time.scheduleHandOff(this::hedgeDue, Duration.ofNanos(this.delayNanos));
        }
        catch (RuntimeException ex) {
            // no timer, no hedge: the race goes on with the tries it has
        }
    }

    private void cancelTimer() {
        ScheduledTask scheduled = this.timer;
        if (scheduled != null) {
            scheduled.cancel();
            this.timer = null;
        }
    }

    private void hedgeDue() {
        HedgeTry hedge;
        this.lock.lock();
        try {
            if (this.over) {
                return;
            }
            hedge = new HedgeTry(++this.hedgesDue);
            this.running.add(hedge);
            this.timer = null;
            scheduleHedge();
        }
        finally {
            this.lock.unlock();
        }
        try {
            this.hedgeStarter.accept(hedge);
        }
        catch (RuntimeException ex) {
            refused(hedge, ex);
        }
    }

}
