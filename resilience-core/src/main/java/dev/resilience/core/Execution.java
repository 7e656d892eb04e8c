package dev.resilience.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.fallback.FallbackHandler;
import dev.resilience.core.idempotency.IdempotencyOutcome;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.retry.RetryAfter;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.core.retry.RetryEvent;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.Durations;
import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

/**
 * The state of one call through a {@link ResiliencePipeline}, and the decisions shared by its
 * synchronous and asynchronous runs: idempotency claim, whether and when to retry, which
 * fallback to try, and the final account.
 *
 * <p>Only one thread works on an execution at a time: the caller's, or, for an asynchronous
 * call, the thread each step was handed to; every hand-over publishes the state.
 *
 * <p>Longer than 400 lines because it still holds the decisions of every policy; the stages
 * of issue 13 take them out of it.
 *
 * @param <T> the type of the call's value
 */
abstract class Execution<T> {

    static final long STOP = -1;

    static final long CLAIMED = IdempotencyClaim.CLAIMED;

    static final long SETTLED = IdempotencyClaim.SETTLED;

    private static final System.Logger logger = System.getLogger(ResiliencePipeline.class.getName());

    final ResiliencePipeline pipeline;

    final CallContext context;

    final TimeSource time;

    private final long startNanos;

    private long deadlineNanos = Long.MAX_VALUE;

    int attempts;

    private @Nullable List<AttemptFailure> failures;

    private @Nullable List<Throwable> fallbackErrors;

    private long previousDelayNanos;

    private long firstAttemptNanos;

    private long lastAttemptNanos;

    private boolean budgetRefused;

    private boolean retryStageEnded;

    private final @Nullable IdempotencyClaim idempotency;

    CircuitBreaker.@Nullable Permit permit;

    ExecutionStatus status = ExecutionStatus.ERROR;

    @Nullable T value;

    @Nullable Throwable error;

    /** The last exception this call created itself; only that one may carry others as suppressed. */
    private @Nullable Throwable ownError;

    private int fallbackIndex;

    private @Nullable String fallbackName;

    private boolean replayed;

    Execution(ResiliencePipeline pipeline, CallContext context, long startNanos) {
        this.pipeline = pipeline;
        this.context = context;
        this.time = pipeline.timeSource();
        this.startNanos = startNanos;
        IdempotencyPolicy policy = pipeline.idempotency();
        this.idempotency = (policy != null) ? new IdempotencyClaim(policy, this.time, pipeline.executor()) : null;
    }

    /**
     * Claims the call's idempotency key.
     * @return {@link #CLAIMED} when the method may run, {@link #SETTLED} when the call is
     * over (replayed or refused), or the nanoseconds to wait before claiming again
     */
    final long claim() {
        return (this.idempotency != null) ? this.idempotency.claim(this) : CLAIMED;
    }

    /**
     * Completes the claimed key with the call's value, or releases it when the call failed.
     * Never throws.
     */
    final void settleClaim() {
        if (this.idempotency != null) {
            this.idempotency.settle(this, this.status == ExecutionStatus.SUCCESS, this.value);
        }
    }

    final void replay(@Nullable Object replayedValue) {
        this.replayed = true;
        succeed(uncheckedCast(replayedValue));
    }

    /**
     * Starts the retry stage: counts the call in the budget and starts the deadline.
     */
    final void startRetryStage() {
        RetryPolicy retry = this.pipeline.retry();
        if (retry == null) {
            return;
        }
        RetryBudget budget = retry.budget();
        if (budget != null) {
            budget.recordCall();
        }
        Duration maxDuration = retry.maxDuration();
        if (maxDuration != null) {
            this.deadlineNanos = Math.min(Long.MAX_VALUE - 1,
                    Durations.later(this.time.nanoTime(), Durations.toNanos(maxDuration)));
        }
    }

    /**
     * Ends the call as a TIMEOUT when its deadline has passed, which a retry late out of its
     * backoff (a starved thread, a busy executor) finds before it would start another attempt.
     * @return {@code true} if the deadline has passed and the call is over
     */
    final boolean pastDeadline() {
        if (this.deadlineNanos == Long.MAX_VALUE || this.time.nanoTime() < this.deadlineNanos) {
            return false;
        }
        Throwable last = (this.failures != null) ? this.failures.get(this.failures.size() - 1).error() : null;
        stop(ExecutionStatus.TIMEOUT,
                own(new DeadlineExceededException(this.pipeline.name(), this.pipeline.retry().maxDuration(), last)));
        return true;
    }

    /**
     * Returns the time the next attempt may take: its timeout, shortened by the deadline.
     * @return the limit in nanoseconds, or 0 when the attempt is not limited
     */
    final long attemptLimitNanos() {
        RetryPolicy retry = this.pipeline.retry();
        Duration timeout = (retry != null) ? retry.attemptTimeout() : null;
        long limit = (timeout != null) ? Math.min(Durations.toNanos(timeout), Long.MAX_VALUE - 1) : Long.MAX_VALUE;
        if (this.deadlineNanos != Long.MAX_VALUE) {
            limit = Math.min(limit, Math.max(1, this.deadlineNanos - this.time.nanoTime()));
        }
        return (limit == Long.MAX_VALUE) ? 0 : limit;
    }

    final AttemptTimeoutException attemptTimeout(long limitNanos) {
        return new AttemptTimeoutException(this.pipeline.name(), Duration.ofNanos(limitNanos));
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
     * Marks the start of an attempt that the breaker permitted.
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
        if (++this.attempts == 1) {
            this.firstAttemptNanos = now;
        }
        this.lastAttemptNanos = now;
        return now;
    }

    /**
     * Asks the breaker, if any, to permit the next attempt. A refusal ends the retry stage
     * with status {@link ExecutionStatus#REJECTED}; it is never retried.
     * @return whether the attempt may run
     */
    final boolean permitted() {
        CircuitBreaker breaker = this.pipeline.circuitBreaker();
        if (breaker == null) {
            return true;
        }
        try {
            this.permit = breaker.acquirePermit();
            return true;
        }
        catch (CallNotPermittedException ex) {
            stop(ExecutionStatus.REJECTED, ex);
            return false;
        }
    }

    /**
     * Reports a successful attempt to the breaker that permitted it, if any.
     * @param durationNanos how long the attempt took
     */
    final void recordSuccess(long durationNanos) {
        CircuitBreaker.Permit taken = takePermit();
        if (taken != null) {
            this.pipeline.circuitBreaker().onSuccess(taken, durationNanos);
        }
    }

    /**
     * Reports a failed attempt to the breaker that permitted it, if any.
     * @param durationNanos how long the attempt took
     * @param failure what the attempt threw
     */
    final void recordError(long durationNanos, Throwable failure) {
        CircuitBreaker.Permit taken = takePermit();
        if (taken != null) {
            this.pipeline.circuitBreaker().onError(taken, durationNanos, failure);
        }
    }

    /**
     * Gives the breaker back the permit of an attempt that ends without an outcome, as a
     * cancelled one does.
     */
    final void releasePermit() {
        CircuitBreaker.Permit taken = takePermit();
        if (taken != null) {
            this.pipeline.circuitBreaker().release(taken);
        }
    }

    private CircuitBreaker.@Nullable Permit takePermit() {
        CircuitBreaker.Permit taken = this.permit;
        this.permit = null;
        return taken;
    }

    /**
     * Decides what follows an attempt that produced a value.
     * @param result the value
     * @param attemptStart the attempt's start
     * @return the delay before the next attempt in nanoseconds, or {@link #STOP}
     */
    final long afterValue(@Nullable T result, long attemptStart) {
        RetryPolicy retry = this.pipeline.retry();
        if (retry != null && retry.shouldRetryResult(result)) {
            return afterFailure(own(new RejectedResultException(this.pipeline.name(), result)), attemptStart);
        }
        succeed(result);
        return STOP;
    }

    /**
     * Decides what follows a failed attempt. An interruption and a rejection by a breaker
     * inside the attempt end the call at once; they are never retried.
     * @param failure what the attempt threw; never an {@link Error}
     * @param attemptStart the attempt's start
     * @return the delay before the next attempt in nanoseconds, or {@link #STOP}
     */
    final long afterFailure(Throwable failure, long attemptStart) {
        recordFailure(failure, attemptStart);
        if (failure instanceof CallNotPermittedException) {
            stop(ExecutionStatus.REJECTED, failure);
            return STOP;
        }
        if (failure instanceof InterruptedException) {
            stop(ExecutionStatus.ERROR, failure);
            return STOP;
        }
        boolean timeout = failure instanceof AttemptTimeoutException;
        RetryPolicy retry = this.pipeline.retry();
        if (retry == null) {
            stop(timeout ? ExecutionStatus.TIMEOUT : ExecutionStatus.ERROR, failure);
            return STOP;
        }
        if (!retry.isRetryable(failure)) {
            stop(timeout ? ExecutionStatus.TIMEOUT : ExecutionStatus.FAILURE, failure);
            return STOP;
        }
        if (this.attempts >= retry.maxAttempts()) {
            stop(timeout ? ExecutionStatus.TIMEOUT : ExecutionStatus.ERROR, failure);
            return STOP;
        }
        long delay = withRetryAfter(retry.nextDelayNanos(this.attempts, this.previousDelayNanos), failure, retry);
        Duration maxDuration = retry.maxDuration();
        if (maxDuration != null && delay >= this.deadlineNanos - this.time.nanoTime()) {
            stop(ExecutionStatus.TIMEOUT, own(new DeadlineExceededException(this.pipeline.name(), maxDuration, failure)));
            return STOP;
        }
        RetryBudget budget = retry.budget();
        if (budget != null && !budget.tryAcquireRetry()) {
            this.budgetRefused = true;
            notifyListeners((listener) -> listener.onBudgetRefused(this.pipeline.name()));
            stop(timeout ? ExecutionStatus.TIMEOUT : ExecutionStatus.ERROR, failure);
            return STOP;
        }
        this.previousDelayNanos = delay;
        RetryEvent event = new RetryEvent(this.pipeline.name(), this.attempts, failure, Duration.ofNanos(delay));
        retry.notifyRetry(event);
        notifyListeners((listener) -> listener.onRetry(this.pipeline.name(), event));
        return delay;
    }

    /**
     * Makes a drawn delay at least as long as the wait a {@link RetryAfter} failure asks for,
     * that wait capped by the backoff's longest delay.
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

    /**
     * Ends the call because its thread was interrupted while it waited.
     * @param status the status to end with: {@link ExecutionStatus#ERROR} when attempts ran
     * @param interruption the interruption
     */
    final void interrupted(ExecutionStatus status, InterruptedException interruption) {
        stop(status, own(new CallInterruptedException(this.pipeline.name(), interruption)));
    }

    /**
     * Marks the end of the retry stage, after which a failed call may become a dead letter.
     */
    final void retryStageEnded() {
        this.retryStageEnded = true;
    }

    /**
     * Returns the position of the next fallback to try, from a position on. An interrupted
     * call takes no fallback: it ends at once.
     * @param from the position to look from, the first being 0
     * @return the position of the next applicable fallback, or -1 when none is left or the
     * call needs none
     */
    final int nextFallback(int from) {
        var chain = this.pipeline.fallbacks();
        if (chain == null || this.status == ExecutionStatus.SUCCESS || this.error == null
                || this.error instanceof InterruptedException || this.error instanceof CallInterruptedException
                || !chain.appliesTo(this.error)) {
            return -1;
        }
        List<FallbackHandler> handlers = chain.handlers();
        for (int index = from; index < handlers.size(); index++) {
            if (handlers.get(index).appliesTo(this.error)) {
                return index;
            }
        }
        return -1;
    }

    final FallbackHandler fallbackHandler(int index) {
        return this.pipeline.fallbacks().handlers().get(index);
    }

    final void fallbackSucceeded(int index, @Nullable Object fallbackValue) {
        String name = fallbackHandler(index).name();
        notifyListeners((listener) -> listener.onFallback(this.pipeline.name(), name, true));
        this.fallbackIndex = index + 1;
        this.fallbackName = name;
        this.status = ExecutionStatus.SUCCESS;
        this.value = uncheckedCast(fallbackValue);
    }

    final void fallbackFailed(int index, Throwable failure) {
        String name = fallbackHandler(index).name();
        notifyListeners((listener) -> listener.onFallback(this.pipeline.name(), name, false));
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
            if (finalError == this.ownError) {
                attachSuppressed(finalError);
            }
            logEarlierErrors(finalError);
        }
        Map<String, Object> metadata = metadata(writeDeadLetter(finalError));
        List<AttemptFailure> attemptFailures = (this.failures != null) ? this.failures : List.of();
        ExecutionResult<T> result = new ExecutionResult<>(this.status, this.value, finalError, this.attempts,
                attemptFailures, Duration.ofNanos(this.time.nanoTime() - this.startNanos), this.fallbackIndex > 0,
                this.fallbackIndex, this.replayed, metadata);
        completed(result);
        return result;
    }

    @SuppressWarnings("unchecked")
    private static <T> @Nullable T uncheckedCast(@Nullable Object value) {
        return (T) value;
    }

    private void recordFailure(Throwable failure, long attemptStart) {
        if (this.failures == null) {
            this.failures = new ArrayList<>(4);
        }
        this.failures.add(new AttemptFailure(this.attempts, failure, Duration.ofNanos(this.time.nanoTime() - attemptStart)));
    }

    private void attachSuppressed(Throwable finalError) {
        if (this.failures != null) {
            for (AttemptFailure failure : this.failures) {
                Suppressed.add(finalError, failure.error());
            }
        }
        if (this.fallbackErrors != null) {
            for (Throwable fallbackError : this.fallbackErrors) {
                Suppressed.add(finalError, fallbackError);
            }
        }
    }

    /**
     * Logs, at DEBUG, the errors met before the final one: the final error is thrown as it is,
     * so they are not attached to it.
     */
    private void logEarlierErrors(Throwable finalError) {
        boolean earlierAttempts = this.failures != null && (this.failures.size() > 1
                || this.failures.get(0).error() != finalError);
        if ((!earlierAttempts && this.fallbackErrors == null) || !logger.isLoggable(System.Logger.Level.DEBUG)) {
            return;
        }
        List<String> earlier = new ArrayList<>();
        if (this.failures != null) {
            this.failures.stream()
                .filter((failure) -> failure.error() != finalError)
                .map((failure) -> "attempt " + failure.attempt() + ": " + failure.error())
                .forEach(earlier::add);
        }
        if (this.fallbackErrors != null) {
            this.fallbackErrors.stream().map((failure) -> "fallback: " + failure).forEach(earlier::add);
        }
        logger.log(System.Logger.Level.DEBUG, "Call of ''{0}'' ended {1} with {2}; before it: {3}", this.pipeline.name(),
                this.status, finalError.getClass().getName(), earlier.stream().collect(Collectors.joining("; ")));
    }

    private @Nullable String writeDeadLetter(@Nullable Throwable finalError) {
        if (finalError == null || !this.retryStageEnded || this.pipeline.retry() == null
                || !DeadLetters.isWorkUndone(this.status, finalError)) {
            return null;
        }
        DeadLetter deadLetter = DeadLetters.write(this.pipeline, this.context, this.status, finalError, this.attempts,
                this.firstAttemptNanos, this.lastAttemptNanos);
        if (deadLetter == null) {
            return null;
        }
        notifyListeners((listener) -> listener.onDeadLetter(deadLetter));
        return deadLetter.id();
    }

    private Map<String, Object> metadata(@Nullable String deadLetterId) {
        String key = (this.idempotency != null) ? this.idempotency.key() : null;
        if (!this.budgetRefused && deadLetterId == null && this.fallbackName == null && key == null) {
            return Map.of();
        }
        Map<String, Object> metadata = new HashMap<>(4);
        if (this.budgetRefused) {
            metadata.put(ExecutionResult.BUDGET_REFUSED, true);
        }
        if (deadLetterId != null) {
            metadata.put(ExecutionResult.DEAD_LETTER_ID, deadLetterId);
        }
        if (this.fallbackName != null) {
            metadata.put(ExecutionResult.FALLBACK_NAME, this.fallbackName);
        }
        if (key != null) {
            metadata.put(ExecutionResult.IDEMPOTENCY_KEY, key);
        }
        return metadata;
    }

    final void notifyIdempotency(String name, IdempotencyOutcome outcome) {
        notifyListeners((listener) -> listener.onIdempotency(name, outcome));
    }

    /**
     * Tells the listeners a call ended, without a capturing lambda: this runs on every call.
     */
    private void completed(ExecutionResult<T> result) {
        List<ExecutionListener> listeners = this.pipeline.listeners();
        for (int i = 0; i < listeners.size(); i++) {
            completed(listeners.get(i), result);
        }
        if (this.context.listener() != ExecutionListener.NONE) {
            completed(this.context.listener(), result);
        }
    }

    private void completed(ExecutionListener listener, ExecutionResult<T> result) {
        try {
            listener.onComplete(this.pipeline.name(), result);
        }
        catch (RuntimeException ex) {
            logger.log(System.Logger.Level.WARNING, "Execution listener failed", ex);
        }
    }

    final void notifyListeners(java.util.function.Consumer<ExecutionListener> event) {
        for (ExecutionListener listener : this.pipeline.listeners()) {
            notifySafely(listener, event);
        }
        notifySafely(this.context.listener(), event);
    }

    private static void notifySafely(ExecutionListener listener, java.util.function.Consumer<ExecutionListener> event) {
        if (listener == ExecutionListener.NONE) {
            return;
        }
        try {
            event.accept(listener);
        }
        catch (RuntimeException ex) {
            logger.log(System.Logger.Level.WARNING, "Execution listener failed", ex);
        }
    }
}
