package dev.resilience.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.idempotency.IdempotencyOutcome;
import dev.resilience.core.lastgood.LastGoodValue;
import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

/**
 * The state of one call through a {@link ResiliencePipeline}, and the decisions shared by
 * its synchronous and asynchronous runs: idempotency claim, whether and when to retry,
 * which fallback to try, and the final account.
 *
 * <p>
 * Only one thread works on an execution at a time: the caller's, or, for an asynchronous
 * call, the thread each step was handed to; every hand-over publishes the state.
 *
 * <p>
 * Longer than 400 lines because it is the one place of the state and decisions that both
 * drivers share: split, each part would reach into the other's fields.
 *
 * @param <T> the type of the call's value
 */
abstract class Execution<T> {

    final Stages stages;

    final CallContext context;

    final TimeSource time;

    private final long startNanos;

    /** The call's deadline, set by the retry stage when calls have one. */
    long deadlineNanos;

    int attempts;

    /**
     * The backoff drawn before the latest retry, which decorrelated jitter starts from.
     */
    long previousDelayNanos;

    private @Nullable List<AttemptFailure> failures;

    private @Nullable List<Throwable> fallbackErrors;

    private long firstAttemptNanos;

    private long lastAttemptNanos;

    /**
     * The clock's reading at the end of the latest attempt, when it produced a value and
     * the guards timed it ({@link #valueProduced}); meaningful only while
     * {@link #valueEndRead} holds.
     */
    private long valueEndNanos;

    /**
     * Whether {@link #valueEndNanos} may serve as the call's end: the latest attempt
     * produced a value and was timed, and nothing but the engine's own code ran or will
     * run between it and the call's end ({@link Stages#endsAtValue}).
     */
    private boolean valueEndRead;

    private boolean budgetRefused;

    private boolean retryStageEnded;

    private final @Nullable IdempotencyClaim idempotency;

    /** The guards' pass of the running attempt. */
    final AttemptPass pass;

    ExecutionStatus status = ExecutionStatus.ERROR;

    @Nullable T value;

    @Nullable Throwable error;

    /**
     * The last exception this call created itself; only that one may carry others as
     * suppressed.
     */
    private @Nullable Throwable ownError;

    private int fallbackIndex;

    private @Nullable String fallbackName;

    private @Nullable Instant staleSince;

    private boolean replayed;

    Execution(Stages stages, CallContext context, long startNanos) {
        this.stages = stages;
        this.context = context;
        this.time = stages.time;
        this.startNanos = startNanos;
        this.idempotency = stages.idempotency.open();
        this.pass = new AttemptPass(stages.guards, context);
    }

    /**
     * Claims the call's idempotency key; a call that is not idempotent is claimed at
     * once.
     * @return the idempotency stage's decision; after
     * {@link IdempotencyClaim.Decision#WAIT}, {@link #claimWaitNanos()} says how long
     */
    final IdempotencyClaim.Decision claim() {
        return (this.idempotency != null) ? this.idempotency.claim(this) : IdempotencyClaim.Decision.CLAIMED;
    }

    final long claimWaitNanos() {
        return this.idempotency.waitNanos();
    }

    /**
     * Completes the key with the call's value, or releases it when the call failed or was
     * served a last good value (a stale copy, not its answer); keeps the last good value.
     */
    final void settleClaim() {
        if (this.idempotency != null) {
            this.idempotency.settle(this, this.status == ExecutionStatus.SUCCESS && this.staleSince == null,
                    this.value);
        }
        this.stages.fallbacks.keep(this, this.fallbackIndex == 0 && !this.replayed);
    }

    /** Serves the last good value, if any, before the named fallbacks; never throws. */
    final boolean servedLastGood() {
        LastGoodValue lastGood = this.stages.fallbacks.lastGood(this, this.stages.name).orElse(null);
        if (lastGood != null) {
            served(LastGood.FALLBACK_NAME, 1, lastGood.value(), lastGood.storedAt());
        }
        return lastGood != null;
    }

    final long startNanos() {
        return this.startNanos;
    }

    final void replay(@Nullable Object replayedValue) {
        this.replayed = true;
        succeed(uncheckedCast(replayedValue));
    }

    /**
     * Starts the retry stage: counts the call in the budget and starts the deadline.
     * @param now the current time of the pipeline's time source
     */
    final void startRetryStage(long now) {
        this.deadlineNanos = this.stages.retry.enter(now);
    }

    /**
     * Ends the call as a TIMEOUT when its deadline has passed.
     * @return {@code true} if the deadline has passed and the call is over
     */
    final boolean pastDeadline() {
        return this.stages.retry.pastDeadline(this);
    }

    /**
     * Returns the time the next attempt may take.
     * @return the limit in nanoseconds, or {@link AttemptTimeoutStage#UNLIMITED}
     */
    final long attemptLimitNanos() {
        return this.stages.timeout.limitNanos(this.deadlineNanos);
    }

    final AttemptTimeoutException attemptTimeout(long limitNanos) {
        return this.stages.timeout.timeout(limitNanos);
    }

    /**
     * Marks an exception as created by this call, so that it may carry the call's earlier
     * errors as suppressed exceptions if it becomes the final error.
     * @param created the exception
     * @param <E> its type
     * @return the exception
     */
    final <E extends Throwable> E own(E created) {
        this.ownError = created;
        return created;
    }

    /**
     * Marks the start of an attempt that the guards admitted.
     * @return the attempt's start, in {@link TimeSource#nanoTime()} terms
     */
    final long beginAttempt() {
        return attemptBegan(this.time.nanoTime());
    }

    /**
     * Marks the start of an attempt that began at a known time.
     * @param now the attempt's start
     * @return the attempt's start
     */
    final long attemptBegan(long now) {
        this.valueEndRead = false;
        if (++this.attempts == 1) {
            this.firstAttemptNanos = now;
        }
        this.lastAttemptNanos = now;
        return now;
    }

    /**
     * Tells the guards that the running attempt produced a value, with how long it took
     * when a guard uses that ({@link Stages#guardedDuration}), and keeps the clock's
     * reading at its end as the call's end, should the call end with that value, when no
     * code but the engine's runs until then ({@link Stages#endsAtValue}) and no guard
     * changed as it heard the value.
     * @param attemptStart the attempt's start
     * @param result the value
     * @return how a guard's result predicate judged the value: {@code null} when none
     * threw
     */
    final @Nullable ResultPredicateException valueProduced(long attemptStart, @Nullable T result) {
        if (!this.stages.guards.timed()) {
            return this.pass.succeeded(0, result);
        }
        long end = this.time.nanoTime();
        if (!this.stages.endsAtValue) {
            return this.pass.succeeded(end - attemptStart, result);
        }
        long changes = this.stages.guards.changes();
        ResultPredicateException judged = this.pass.succeeded(end - attemptStart, result);
        this.valueEndNanos = end;
        this.valueEndRead = this.stages.guards.changes() == changes;
        return judged;
    }

    /**
     * Ends the retry stage on a guard's refusal, which is never retried: REJECTED, unless
     * the thread was interrupted while it waited for a pass, which ends the call as an
     * interrupted wait does.
     * @param refusal what the guard threw
     */
    final void refused(Throwable refusal) {
        boolean interrupted = refusal instanceof CallInterruptedException;
        stop((interrupted && this.attempts > 0) ? ExecutionStatus.ERROR : ExecutionStatus.REJECTED,
                interrupted ? own(refusal) : refusal);
    }

    /**
     * Asks the guards to admit the next attempt through their synchronous admission,
     * which waits on this thread if a guard makes it wait, and holds the pass; a refusal
     * ends the retry stage, as {@link #refused} says. An asynchronous call is admitted so
     * only by guards that {@link Guards#answersAtOnce() answer at once}.
     * @return whether the attempt may run
     */
    final boolean permitted() {
        try {
            this.pass.hold(this.stages.guards.admit());
        }
        catch (RuntimeException ex) {
            refused(ex);
            return false;
        }
        return true;
    }

    /**
     * Asks the retry stage what follows an attempt that produced a value.
     * @param result the value
     * @param attemptStart the attempt's start
     * @return the retry stage's decision
     */
    final RetryDecision afterValue(@Nullable T result, long attemptStart) {
        return this.stages.retry.afterValue(this, result, attemptStart);
    }

    /**
     * Asks the retry stage what follows a failed attempt.
     * @param failure what the attempt threw; never an {@link Error}
     * @param attemptStart the attempt's start
     * @return the retry stage's decision
     */
    final RetryDecision afterFailure(Throwable failure, long attemptStart) {
        return this.stages.retry.afterFailure(this, failure, attemptStart);
    }

    /**
     * Asks the retry stage what follows a hedged attempt, once its race is decided: a
     * refusal of its first try ends the retry stage as a guard's refusal does, and its
     * admission after the call's deadline ends the call as a TIMEOUT; otherwise the
     * attempt counts once, the listeners hear how the race went, and its value (judged by
     * the race) or failure is decided as a single attempt's would be.
     * @param race how the race ended
     * @return the retry stage's decision
     */
    final RetryDecision raced(RaceOutcome<T> race) {
        if (race.kind() == RaceOutcome.Kind.REFUSED) {
            refused(race.failure());
            return RetryDecision.STOP;
        }
        if (race.kind() == RaceOutcome.Kind.PAST_DEADLINE) {
            this.stages.retry.deadlinePassed(this);
            return RetryDecision.STOP;
        }
        long start = attemptBegan(race.start());
        notifyListeners((listener) -> listener.onHedge(this.stages.name, race.event()));
        Throwable failure = race.failure();
        if (race.kind() == RaceOutcome.Kind.INTERRUPTED) {
            interrupted(ExecutionStatus.ERROR, (InterruptedException) failure);
            return RetryDecision.STOP;
        }
        if (race.kind() == RaceOutcome.Kind.VALUE) {
            return this.stages.retry.afterJudgedValue(this, race.value(), race.judged(), start);
        }
        if (race.own()) {
            own(failure);
        }
        if (failure instanceof Error fatal) {
            throw fatal;
        }
        return afterFailure(failure, start);
    }

    final void budgetRefused() {
        this.budgetRefused = true;
        notifyListeners((listener) -> listener.onBudgetRefused(this.stages.name));
    }

    final @Nullable Throwable lastFailure() {
        return (this.failures != null) ? this.failures.get(this.failures.size() - 1).error() : null;
    }

    /**
     * Ends the call because its thread was interrupted while it waited.
     * @param status the status to end with: {@link ExecutionStatus#ERROR} when attempts
     * ran
     * @param interruption the interruption
     */
    final void interrupted(ExecutionStatus status, InterruptedException interruption) {
        stop(status, own(new CallInterruptedException(this.stages.name, interruption)));
    }

    /**
     * Marks the end of the retry stage, after which a failed call may become a dead
     * letter.
     */
    final void retryStageEnded() {
        this.retryStageEnded = true;
    }

    /** Asks the fallback stage for the next fallback to try from a position, 0 first. */
    final int nextFallback(int from) {
        return this.stages.fallbacks.next(this, from);
    }

    final FallbackHandler fallbackHandler(int index) {
        return this.stages.fallbacks.handler(index);
    }

    final void fallbackSucceeded(int index, @Nullable Object fallbackValue) {
        served(fallbackHandler(index).name(), index + 1 + this.stages.fallbacks.offset(), fallbackValue, null);
    }

    private void served(String name, int position, @Nullable Object fallbackValue, @Nullable Instant storedAt) {
        notifyListeners((listener) -> listener.onFallback(this.stages.name, name, true));
        this.staleSince = storedAt;
        this.fallbackIndex = position;
        this.fallbackName = name;
        this.status = ExecutionStatus.SUCCESS;
        this.value = uncheckedCast(fallbackValue);
    }

    final void fallbackFailed(int index, Throwable failure) {
        String name = fallbackHandler(index).name();
        notifyListeners((listener) -> listener.onFallback(this.stages.name, name, false));
        if (this.fallbackErrors == null) {
            this.fallbackErrors = new ArrayList<>(2);
        }
        this.fallbackErrors.add(failure);
    }

    final void succeed(@Nullable T result) {
        this.status = ExecutionStatus.SUCCESS;
        this.value = result;
        this.error = null;
    }

    final void stop(ExecutionStatus finalStatus, Throwable finalError) {
        this.status = finalStatus;
        this.error = finalError;
        this.value = null;
    }

    /**
     * Builds the complete account of the call, writes its dead letter if its work was not
     * done, and tells the listeners.
     * @return the result
     */
    final ExecutionResult<T> finish() {
        Throwable finalError = (this.status == ExecutionStatus.SUCCESS) ? null : this.error;
        if (finalError != null) {
            EarlierErrors.settle(this.stages.name, this.status, finalError, finalError == this.ownError, this.failures,
                    this.fallbackErrors);
        }
        String key = (this.idempotency != null) ? this.idempotency.key() : null;
        Map<String, Object> metadata = ExecutionResult.metadata(this.budgetRefused, writeDeadLetter(finalError),
                this.fallbackName, key, this.staleSince);
        List<AttemptFailure> attemptFailures = (this.failures != null) ? this.failures : List.of();
        ExecutionResult<T> result = new ExecutionResult<>(this.status, this.value, finalError, this.attempts,
                attemptFailures, Duration.ofNanos(endNanos() - this.startNanos), this.fallbackIndex > 0,
                this.fallbackIndex, this.replayed, metadata);
        CallListeners.completed(this.stages.listeners, this.context.listener(), this.stages.name, result);
        return result;
    }

    /**
     * Returns the call's end: the end of the attempt whose value the call ended with,
     * when it was read and nothing since may have taken time, or else the clock now.
     */
    private long endNanos() {
        boolean attemptsValue = this.status == ExecutionStatus.SUCCESS && this.fallbackIndex == 0 && !this.replayed;
        return (attemptsValue && this.valueEndRead) ? this.valueEndNanos : this.time.nanoTime();
    }

    @SuppressWarnings("unchecked")
    private static <T> @Nullable T uncheckedCast(@Nullable Object value) {
        return (T) value;
    }

    final void recordFailure(Throwable failure, long attemptStart) {
        if (this.failures == null) {
            this.failures = new ArrayList<>(4);
        }
        this.failures
            .add(new AttemptFailure(this.attempts, failure, Duration.ofNanos(this.time.nanoTime() - attemptStart)));
    }

    private @Nullable String writeDeadLetter(@Nullable Throwable finalError) {
        if (!this.retryStageEnded) {
            return null;
        }
        DeadLetter deadLetter = this.stages.deadLetters.writeIfUndone(this.context, this.status, finalError,
                this.attempts, this.firstAttemptNanos, this.lastAttemptNanos);
        if (deadLetter == null) {
            return null;
        }
        if (this.context.deadLetters() == null) {
            notifyListeners((listener) -> listener.onDeadLetter(deadLetter));
        }
        else {
            CallListeners.notify(List.of(), this.context.listener(), (listener) -> listener.onDeadLetter(deadLetter));
        }
        return deadLetter.id();
    }

    final void notifyIdempotency(String name, IdempotencyOutcome outcome) {
        notifyListeners((listener) -> listener.onIdempotency(name, outcome));
    }

    final void notifyListeners(Consumer<ExecutionListener> event) {
        CallListeners.notify(this.stages.listeners, this.context.listener(), event);
    }

}
