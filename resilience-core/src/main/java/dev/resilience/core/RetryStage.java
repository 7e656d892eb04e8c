package dev.resilience.core;

import java.time.Duration;

import dev.resilience.core.retry.RetryAfter;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.core.retry.RetryEvent;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.Durations;
import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

/**
 * The retry stage of a pipeline: counts each call in the budget, starts its deadline, and
 * decides after each attempt whether another one follows and after which delay (backoff,
 * jitter, {@link RetryAfter} hints, budget, deadline). Without a retry policy a call has
 * one attempt. Built once per pipeline; the per-call state lives in the
 * {@link Execution}.
 */
final class RetryStage {

    private final String name;

    private final TimeSource time;

    private final @Nullable RetryPolicy retry;

    private final @Nullable RetryBudget budget;

    private final boolean budgetSharesClock;

    private final long maxDurationNanos;

    RetryStage(String name, TimeSource time, @Nullable RetryPolicy retry) {
        this.name = name;
        this.time = time;
        this.retry = retry;
        this.budget = (retry != null) ? retry.budget() : null;
        this.budgetSharesClock = this.budget != null && this.budget.usesTimeSource(time);
        Duration maxDuration = (retry != null) ? retry.maxDuration() : null;
        this.maxDurationNanos = (maxDuration != null) ? Durations.toNanos(maxDuration) : -1;
    }

    /**
     * Returns whether a call has this stage: then a call whose work was undone is a dead
     * letter, and a non-retryable error is a business FAILURE.
     */
    boolean present() {
        return this.retry != null;
    }

    /** Returns whether the policy's result predicate judges the values of attempts. */
    boolean judgesValues() {
        return this.retry != null && this.retry.retriesOnResult();
    }

    /** Returns whether calls have a deadline, which the first attempt must know of. */
    boolean hasDeadline() {
        return this.maxDurationNanos >= 0;
    }

    /**
     * Returns whether {@link #enter} uses the time it is given: for a budget that counts
     * calls on the pipeline's clock, or a deadline. Otherwise a call need not read the
     * clock to enter the stage.
     */
    boolean usesStart() {
        return this.budgetSharesClock || hasDeadline();
    }

    /**
     * Starts the stage for one call: counts the call in the budget.
     * @param now the call's start, read from the pipeline's time source; any value when
     * {@link #usesStart()} is {@code false}
     * @return the call's deadline, a reading of the time source that may have wrapped
     * past {@link Long#MAX_VALUE} (only its difference to a later reading counts);
     * meaningless when calls have no deadline ({@link #hasDeadline()})
     */
    long enter(long now) {
        RetryBudget calls = this.budget;
        if (calls != null) {
            if (this.budgetSharesClock) {
                calls.recordCall(now);
            }
            else {
                calls.recordCall();
            }
        }
        return hasDeadline() ? now + this.maxDurationNanos : now;
    }

    /**
     * Asks the policy's result predicate, once, about an attempt's value.
     * @param context the call's context, {@link CallContext#judged() bound} while the
     * predicate judges the value
     * @param value the value
     * @return {@code null} when the value ends the call; otherwise what the attempt
     * counts as: a {@link RejectedResultException} when the predicate rejects the value,
     * a {@link ResultPredicateException} when it throws
     */
    @Nullable RuntimeException rejection(CallContext context, @Nullable Object value) {
        RetryPolicy policy = this.retry;
        if (policy == null || !policy.retriesOnResult()) {
            return null;
        }
        try {
            return JudgedCalls.judge(context, () -> policy.shouldRetryResult(value))
                    ? new RejectedResultException(this.name, value) : null;
        }
        catch (RuntimeException ex) {
            return new ResultPredicateException(this.name, ex);
        }
    }

    /**
     * Decides what follows an attempt that produced a value.
     * @param call the call
     * @param value the value
     * @param attemptStart the attempt's start
     * @return the decision
     */
    <T> RetryDecision afterValue(Execution<T> call, @Nullable T value, long attemptStart) {
        RuntimeException rejection = rejection(call.context, value);
        if (rejection != null) {
            return afterRejection(call, rejection, attemptStart);
        }
        call.succeed(value);
        return RetryDecision.STOP;
    }

    /**
     * Decides what follows an attempt whose value was judged already, by the guards'
     * result predicates and {@link #rejection}, as a hedged race judges its tries'
     * values.
     * @param call the call
     * @param value the value
     * @param rejection what the value counts as, or {@code null} when it ends the call
     * @param attemptStart the attempt's start
     * @return the decision
     */
    <T> RetryDecision afterJudgedValue(Execution<T> call, @Nullable T value, @Nullable RuntimeException rejection,
            long attemptStart) {
        if (rejection != null) {
            return afterRejection(call, rejection, attemptStart);
        }
        call.succeed(value);
        return RetryDecision.STOP;
    }

    /**
     * Decides what follows an attempt whose value {@link #rejection} has already judged,
     * without asking the policy's result predicate again: a rejected value is retried as
     * a retryable failure would be, whatever exception types the policy retries or aborts
     * on (they filter what an attempt throws, not values); a predicate that threw ends
     * the call at once as an ERROR.
     * @param call the call
     * @param rejection what {@link #rejection} returned for the value
     * @param attemptStart the attempt's start
     * @return the decision
     */
    RetryDecision afterRejection(Execution<?> call, RuntimeException rejection, long attemptStart) {
        call.own(rejection);
        if (rejection instanceof ResultPredicateException) {
            call.recordFailure(rejection, attemptStart);
            return stop(call, ExecutionStatus.ERROR, rejection);
        }
        return afterFailure(call, rejection, attemptStart, true);
    }

    /**
     * Decides what follows a failed attempt. An interruption and a rejection by a breaker
     * or a bulkhead or rate limiter inside the attempt end the call at once; they are
     * never retried. Such a rejection wrapped by the {@code CompletionException} of
     * {@code join()} or the {@code ExecutionException} of {@code get()} is taken
     * unwrapped, as an asynchronous attempt's failure is: the call ends REJECTED with the
     * rejection itself.
     * @param call the call
     * @param failure what the attempt threw; never an {@link Error}
     * @param attemptStart the attempt's start
     * @return the decision
     */
    RetryDecision afterFailure(Execution<?> call, Throwable failure, long attemptStart) {
        return afterFailure(call, failure, attemptStart, false);
    }

    private RetryDecision afterFailure(Execution<?> call, Throwable failure, long attemptStart, boolean rejectedValue) {
        Throwable refusal = NestedRefusals.unwrapped(failure);
        if (NestedRefusals.isRefusal(refusal)) {
            call.recordFailure(refusal, attemptStart);
            return stop(call, ExecutionStatus.REJECTED, refusal);
        }
        call.recordFailure(failure, attemptStart);
        if (failure instanceof InterruptedException) {
            return stop(call, ExecutionStatus.ERROR, failure);
        }
        boolean timeout = failure instanceof AttemptTimeoutException;
        RetryPolicy policy = this.retry;
        if (policy == null) {
            return stop(call, timeout ? ExecutionStatus.TIMEOUT : ExecutionStatus.ERROR, failure);
        }
        if (!rejectedValue && !policy.isRetryable(failure)) {
            return stop(call, timeout ? ExecutionStatus.TIMEOUT : ExecutionStatus.FAILURE, failure);
        }
        if (call.attempts >= policy.maxAttempts()) {
            return stop(call, timeout ? ExecutionStatus.TIMEOUT : ExecutionStatus.ERROR, failure);
        }
        long delay = withRetryAfter(policy.nextDelayNanos(call.attempts, call.previousDelayNanos), failure, policy);
        if (hasDeadline() && delay >= call.deadlineNanos - this.time.nanoTime()) {
            return stop(call, ExecutionStatus.TIMEOUT,
                    call.own(new DeadlineExceededException(this.name, policy.maxDuration(), failure)));
        }
        RetryBudget calls = this.budget;
        if (calls != null && !calls.tryAcquireRetry()) {
            call.budgetRefused();
            return stop(call, timeout ? ExecutionStatus.TIMEOUT : ExecutionStatus.ERROR, failure);
        }
        call.previousDelayNanos = delay;
        RetryEvent event = new RetryEvent(this.name, call.attempts, failure, Duration.ofNanos(delay));
        notifyRetryListeners(policy, event);
        call.notifyListeners((listener) -> listener.onRetry(this.name, event));
        return new RetryDecision.Retry(delay);
    }

    /**
     * Ends the call as a TIMEOUT when its deadline has passed, which a retry late out of
     * its backoff (a starved thread, a busy executor) finds before it would start another
     * attempt.
     * @param call the call
     * @return {@code true} if the deadline has passed and the call is over
     */
    boolean pastDeadline(Execution<?> call) {
        if (!passed(call.deadlineNanos)) {
            return false;
        }
        deadlinePassed(call);
        return true;
    }

    /**
     * Ends the call as a TIMEOUT when the guards admitted its next attempt only after its
     * deadline had passed (a guard made it wait): the attempt does not start, and its
     * pass is given back.
     * @param call the call, holding the attempt's pass
     * @return {@code true} if the deadline has passed and the call is over
     */
    boolean admittedPastDeadline(Execution<?> call) {
        if (!pastDeadline(call)) {
            return false;
        }
        call.pass.abandon();
        return true;
    }

    /**
     * Ends a call whose deadline has passed as a TIMEOUT.
     * @param call the call
     */
    void deadlinePassed(Execution<?> call) {
        call.stop(ExecutionStatus.TIMEOUT,
                call.own(new DeadlineExceededException(this.name, this.retry.maxDuration(), call.lastFailure())));
    }

    /**
     * Returns whether a call's deadline has passed, comparing readings of the time source
     * by their difference alone, so that a deadline past the clock's wrap still lies
     * ahead.
     * @param deadlineNanos the call's deadline, from {@link #enter}
     * @return {@code true} if calls have a deadline and it has passed
     */
    boolean passed(long deadlineNanos) {
        return hasDeadline() && this.time.nanoTime() - deadlineNanos >= 0;
    }

    /**
     * Tells the deprecated {@link dev.resilience.core.retry.RetryListener}s of the
     * policy, as before, until they are removed.
     */
    @SuppressWarnings("removal")
    private static void notifyRetryListeners(RetryPolicy policy, RetryEvent event) {
        policy.notifyRetry(event);
    }

    private static RetryDecision stop(Execution<?> call, ExecutionStatus status, Throwable error) {
        call.stop(status, error);
        return RetryDecision.STOP;
    }

    /**
     * Makes a drawn delay at least as long as the wait a {@link RetryAfter} failure asks
     * for, that wait capped by the backoff's longest delay.
     */
    private static long withRetryAfter(long delay, Throwable failure, RetryPolicy retry) {
        if (!(failure instanceof RetryAfter hint)) {
            return delay;
        }
        Duration wait;
        try {
            wait = hint.retryAfter();
        }
        catch (RuntimeException ex) {
            return delay;
        }
        if (wait == null || wait.isNegative()) {
            return delay;
        }
        Duration maxDelay = retry.backoff().maxDelay();
        long hinted = (wait.compareTo(maxDelay) >= 0) ? maxDelay.toNanos() : wait.toNanos();
        return Math.max(delay, hinted);
    }

}
