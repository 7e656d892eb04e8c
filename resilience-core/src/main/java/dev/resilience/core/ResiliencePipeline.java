package dev.resilience.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.deadletter.DeadLetterText;
import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;

/**
 * Policies composed in one fixed order, whatever the order they were given in:
 *
 * <pre>
 * idempotency -&gt; fallback -&gt; retry (backoff, budget, deadline) -&gt; hedging -&gt; rate limiter -&gt; circuit breaker -&gt; bulkhead -&gt; attempt timeout -&gt; action
 * </pre>
 *
 * <p>
 * Every retry attempt passes through the breaker; a breaker rejection is never retried
 * and goes straight to the fallbacks; a replay from the idempotency store runs nothing
 * else; a failed call releases its idempotency claim; a call with a retry policy whose
 * work was not done (status ERROR, TIMEOUT, or REJECTED by the breaker) becomes a dead
 * letter.
 *
 * <p>
 * {@link #execute} returns the complete {@link ExecutionResult} and never throws for a
 * failed call; {@link #call} returns the value or throws the final error as it is: the
 * pipeline adds nothing to an exception it did not create (the earlier attempts' errors
 * are in {@link ExecutionResult#attemptFailures()}, and suppressed on the exceptions the
 * pipeline creates itself, such as {@link AttemptTimeoutException}). An {@link Error} is
 * never retried nor handed to a fallback: it propagates as thrown. An interruption, of an
 * attempt or of a wait, ends the call at once and leaves the thread's interrupt flag set.
 * A {@link dev.resilience.core.circuitbreaker.CallNotPermittedException} thrown by the
 * action (a nested breaker) is never retried: the call goes to the fallbacks with status
 * {@link ExecutionStatus#REJECTED}, and so do a
 * {@link dev.resilience.core.bulkhead.BulkheadFullException} and a
 * {@link dev.resilience.core.ratelimiter.RateLimitedException}, which a breaker does not
 * count as failures.
 *
 * <p>
 * Waits and timeouts are timers of the {@link TimeSource}; the work that follows a timer
 * or the completion of an asynchronous attempt runs on the pipeline's {@link Executor},
 * never on the timer thread. Immutable and thread-safe; build one per protected operation
 * and share it.
 *
 * <p>
 * Longer than 400 lines because its {@link Builder}, public API, is nested in it.
 */
public final class ResiliencePipeline {

    private final String name;

    private final TimeSource timeSource;

    private final Executor executor;

    private final @Nullable IdempotencyPolicy idempotency;

    private final @Nullable FallbackChain fallbacks;

    private final @Nullable LastGood lastGood;

    private final @Nullable RetryPolicy retry;

    private final @Nullable HedgingPolicy hedging;

    private final @Nullable CircuitBreaker circuitBreaker;

    private final @Nullable Bulkhead bulkhead;

    private final @Nullable RateLimiter rateLimiter;

    private final @Nullable Duration timeLimit;

    private final @Nullable DeadLetterStore deadLetters;

    private final List<ExecutionListener> listeners;

    private final List<AttemptGuard<?>> guards;

    private final Function<@Nullable Object, String> argumentRenderer;

    private final int maxArgumentSize;

    private final Stages stages;

    private ResiliencePipeline(Builder builder) {
        this.name = builder.name;
        this.timeSource = builder.timeSource;
        this.executor = (builder.executor != null) ? builder.executor
                : (this.timeSource instanceof VirtualTimeSource) ? Runnable::run : DefaultExecutor.get();
        this.idempotency = builder.idempotency;
        this.fallbacks = builder.fallbacks;
        this.lastGood = builder.lastGood;
        this.retry = builder.retry;
        this.hedging = builder.hedging;
        this.circuitBreaker = builder.circuitBreaker;
        this.bulkhead = builder.bulkhead;
        this.rateLimiter = builder.rateLimiter;
        this.timeLimit = builder.timeLimit;
        this.deadLetters = builder.deadLetters;
        this.listeners = List.copyOf(builder.listeners);
        this.guards = List.copyOf(builder.guards);
        this.argumentRenderer = builder.argumentRenderer;
        this.maxArgumentSize = builder.maxArgumentSize;
        this.stages = new Stages(this, this.listeners);
    }

    /**
     * Starts a pipeline.
     * @param name the name of the protected operation, used in results, dead letters and
     * metrics
     * @return a builder with no policy and the system time source
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * Runs an action through the pipeline.
     * @param action the action
     * @param <T> the type of its value
     * @return the complete account of the call
     */
    public <T> ExecutionResult<T> execute(Callable<? extends T> action) {
        return execute(CallContext.empty(), action);
    }

    /**
     * Runs an action through the pipeline with a call context.
     * @param context the call's idempotency key, arguments and listener
     * @param action the action
     * @param <T> the type of its value
     * @return the complete account of the call
     */
    public <T> ExecutionResult<T> execute(CallContext context, Callable<? extends T> action) {
        return new SyncExecution<T>(this.stages, context, action, this.timeSource.nanoTime()).run();
    }

    /**
     * Runs an action through the pipeline and returns its value.
     * @param action the action
     * @param <T> the type of its value
     * @return the value of the action or of a fallback, or the replayed value
     * @throws Exception the final error, with the earlier attempts' errors suppressed
     */
    public <T> @Nullable T call(Callable<? extends T> action) throws Exception {
        return call(CallContext.empty(), action);
    }

    /**
     * Runs an action through the pipeline with a call context and returns its value.
     * @param context the call's idempotency key, arguments and listener
     * @param action the action
     * @param <T> the type of its value
     * @return the value of the action or of a fallback, or the replayed value
     * @throws Exception the final error, with the earlier attempts' errors suppressed
     */
    public <T> @Nullable T call(CallContext context, Callable<? extends T> action) throws Exception {
        return SyncExecution.call(this.stages, context, action);
    }

    /**
     * Runs an asynchronous action through the pipeline without blocking: waits between
     * attempts are timers of the time source, and every step after the first runs on the
     * pipeline's executor. Cancelling the returned future stops the call: no further
     * attempt or fallback starts, the awaited stage is cancelled, the idempotency claim
     * is released, and the listeners are told of an {@link ExecutionStatus#ERROR} with a
     * {@link java.util.concurrent.CancellationException}.
     * @param context the call's idempotency key, arguments and listener
     * @param action starts one attempt; called once per attempt; a {@code null} stage is
     * a failed attempt
     * @param <T> the type of its value
     * @return a future that completes with the complete account of the call, or
     * exceptionally with an {@link Error} the action or a fallback threw
     */
    public <T> CompletableFuture<ExecutionResult<T>> executeAsync(CallContext context,
            Supplier<? extends CompletionStage<? extends T>> action) {
        return new AsyncExecution<T>(this.stages, context, action).start(false);
    }

    /**
     * Runs an asynchronous action through the pipeline as {@link #executeAsync} does, but
     * hands its first step (the idempotency claim, the guards' first pass, the first
     * attempt) to the pipeline's executor instead of running it on this thread: for a
     * caller on a thread that must not wait for a store, such as an event loop. When the
     * executor refuses that step, or drops it unrun (an executor shut down with queued
     * tasks cancels them), the call ends with status {@link ExecutionStatus#ERROR} and a
     * {@link java.util.concurrent.RejectedExecutionException}, as when it refuses a later
     * step, and the listeners are told.
     * @param context the call's idempotency key, arguments and listener
     * @param action starts one attempt; called once per attempt, never on this thread
     * @param <T> the type of its value
     * @return a future that completes with the complete account of the call, or
     * exceptionally with an {@link Error} the action or a fallback threw
     */
    public <T> CompletableFuture<ExecutionResult<T>> executeAsyncOnExecutor(CallContext context,
            Supplier<? extends CompletionStage<? extends T>> action) {
        return new AsyncExecution<T>(this.stages, context, action).start(true);
    }

    /**
     * Runs an asynchronous action through the pipeline and returns a future of its value;
     * cancelling that future stops the call as {@link #executeAsync} describes.
     * @param context the call's idempotency key, arguments and listener
     * @param action starts one attempt; called once per attempt
     * @param <T> the type of its value
     * @return a future that completes with the value, or exceptionally with the final
     * error
     */
    public <T> CompletableFuture<T> callAsync(CallContext context,
            Supplier<? extends CompletionStage<? extends T>> action) {
        CompletableFuture<ExecutionResult<T>> execution = executeAsync(context, action);
        CompletableFuture<T> value = new CompletableFuture<>();
        execution.whenComplete((result, failure) -> {
            if (failure != null) {
                value.completeExceptionally(failure);
            }
            else if (result.isSuccess()) {
                value.complete(result.value());
            }
            else {
                value.completeExceptionally(Objects.requireNonNull(result.error()));
            }
        });
        value.whenComplete((result, failure) -> execution.cancel(false));
        return value;
    }

    /**
     * Returns the name of the protected operation.
     * @return the name
     */
    public String name() {
        return this.name;
    }

    /**
     * Returns the time source of the pipeline's waits and timeouts.
     * @return the time source
     */
    public TimeSource timeSource() {
        return this.timeSource;
    }

    /**
     * Returns where the work that follows a timer or an asynchronous completion runs.
     * @return the executor
     */
    public Executor executor() {
        return this.executor;
    }

    /**
     * Returns the idempotency policy.
     * @return the policy, or {@code null} when calls are not idempotent
     */
    public @Nullable IdempotencyPolicy idempotency() {
        return this.idempotency;
    }

    /**
     * Returns the fallback chain.
     * @return the chain, or {@code null} when there is none
     */
    public @Nullable FallbackChain fallbacks() {
        return this.fallbacks;
    }

    /**
     * Returns the last good value policy.
     * @return the policy, or {@code null} when the pipeline keeps no last good values
     */
    public @Nullable LastGood lastGood() {
        return this.lastGood;
    }

    /**
     * Returns the retry policy.
     * @return the policy, or {@code null} when calls are attempted once
     */
    public @Nullable RetryPolicy retry() {
        return this.retry;
    }

    /**
     * Returns the hedging policy.
     * @return the policy, or {@code null} when each attempt is a single try
     */
    public @Nullable HedgingPolicy hedging() {
        return this.hedging;
    }

    /**
     * Returns the circuit breaker.
     * @return the breaker, or {@code null} when attempts are not guarded
     */
    public @Nullable CircuitBreaker circuitBreaker() {
        return this.circuitBreaker;
    }

    /**
     * Returns the bulkhead.
     * @return the bulkhead, or {@code null} when attempts are not limited
     */
    public @Nullable Bulkhead bulkhead() {
        return this.bulkhead;
    }

    /**
     * Returns the rate limiter.
     * @return the limiter, or {@code null} when attempts are not rate limited
     */
    public @Nullable RateLimiter rateLimiter() {
        return this.rateLimiter;
    }

    /**
     * Returns the time limit of each attempt set apart from a retry policy.
     * @return the limit, or {@code null} for none
     * @see Builder#timeLimit(Duration)
     */
    public @Nullable Duration timeLimit() {
        return this.timeLimit;
    }

    /**
     * Returns the dead-letter store.
     * @return the store, or {@code null} when no dead letters are written
     */
    public @Nullable DeadLetterStore deadLetters() {
        return this.deadLetters;
    }

    List<ExecutionListener> listeners() {
        return this.listeners;
    }

    List<AttemptGuard<?>> guards() {
        return this.guards;
    }

    int maxArgumentSize() {
        return this.maxArgumentSize;
    }

    String renderArgument(@Nullable Object argument) {
        String text;
        try {
            text = this.argumentRenderer.apply(argument);
        }
        catch (RuntimeException ex) {
            text = DeadLetterText.typeName(argument);
        }
        return DeadLetterText.truncate(text, this.maxArgumentSize);
    }

    /**
     * Builds a {@link ResiliencePipeline}. Not thread-safe.
     */
    public static final class Builder {

        private final String name;

        private TimeSource timeSource = TimeSource.system();

        private @Nullable Executor executor;

        private @Nullable IdempotencyPolicy idempotency;

        private @Nullable FallbackChain fallbacks;

        private @Nullable LastGood lastGood;

        private @Nullable RetryPolicy retry;

        private @Nullable HedgingPolicy hedging;

        private @Nullable CircuitBreaker circuitBreaker;

        private @Nullable Bulkhead bulkhead;

        private @Nullable RateLimiter rateLimiter;

        private @Nullable Duration timeLimit;

        private @Nullable DeadLetterStore deadLetters;

        private final List<ExecutionListener> listeners = new ArrayList<>();

        private final List<AttemptGuard<?>> guards = new ArrayList<>();

        private Function<@Nullable Object, String> argumentRenderer = DeadLetterText::asData;

        private int maxArgumentSize = DeadLetterText.DEFAULT_MAX_ARGUMENT_SIZE;

        private Builder(String name) {
            if (name.isBlank()) {
                throw new IllegalArgumentException("A pipeline needs a name");
            }
            this.name = name;
        }

        /**
         * Sets where the pipeline reads time, sleeps and schedules.
         * @param timeSource the time source
         * @return this builder
         */
        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = timeSource;
            return this;
        }

        /**
         * Sets where the work that follows a timer or the completion of an asynchronous
         * attempt runs: the next asynchronous attempt, fallbacks, idempotency
         * settlements, dead-letter writes and listeners. By default a shared pool of
         * daemon threads that grows as needed; with a {@link VirtualTimeSource}, the
         * thread that advances the time, on which its timers run too, so that a test sees
         * each step done when {@link VirtualTimeSource#advance} returns.
         * @param executor the executor
         * @return this builder
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * Makes calls idempotent.
         * @param idempotency the policy
         * @return this builder
         */
        public Builder idempotency(IdempotencyPolicy idempotency) {
            this.idempotency = idempotency;
            return this;
        }

        /**
         * Sets the fallbacks tried when the retries end in failure.
         * @param fallbacks the chain
         * @return this builder
         */
        public Builder fallbacks(FallbackChain fallbacks) {
            this.fallbacks = fallbacks;
            return this;
        }

        /**
         * Keeps the last good value of each call and serves it, before the fallbacks,
         * when a call fails.
         * @param lastGood the policy
         * @return this builder
         */
        public Builder lastGood(LastGood lastGood) {
            this.lastGood = lastGood;
            return this;
        }

        /**
         * Sets the fallbacks from whatever supplies a chain: a
         * {@link dev.resilience.core.fallback.FallbackChain} of the deprecated package
         * does, so that code passing one still compiles. Taking a {@link Supplier} rather
         * than the deprecated type keeps this package free of any dependency on that one.
         * @param fallbacks supplies the chain, once, when this method is called
         * @return this builder
         * @deprecated since 0.1.0, for removal with {@code dev.resilience.core.fallback}:
         * pass a {@link FallbackChain} to {@link #fallbacks(FallbackChain)}
         */
        @Deprecated(since = "0.1.0", forRemoval = true)
        public Builder fallbacks(Supplier<? extends FallbackChain> fallbacks) {
            return fallbacks(fallbacks.get());
        }

        /**
         * Retries failed attempts.
         * @param retry the policy
         * @return this builder
         */
        public Builder retry(RetryPolicy retry) {
            this.retry = retry;
            return this;
        }

        /**
         * Hedges every attempt, inside the retry stage and outside the guards: when an
         * attempt's first try has not answered after the policy's delay, a hedge starts
         * beside it, and another after each further delay, up to the policy's number of
         * hedges, while no try has succeeded and some try still runs. Each try passes the
         * rate limiter, the breaker and the bulkhead on its own and has its own attempt
         * timeout. The first try that succeeds, with a value the retry policy's result
         * predicate accepts, is the attempt's; the others are stopped and their guards'
         * passes given back, never recorded as failures. A value the predicate rejects
         * counts as a failed try (the guards still hear it as a value, judged by their
         * own predicates). The attempt fails when every try it started failed, with the
         * last one's failure or rejected value, and the retry stage decides on it as
         * usual; a guard's refusal of a hedge does not end the attempt while another try
         * runs. A synchronous call runs the first try on its own thread and each hedge on
         * the pipeline's {@link #executor}, and stops a try by interrupting its thread;
         * an interrupt of the caller stops every try and ends the call. An asynchronous
         * call starts each hedge on the executor and stops a try by cancelling its stage;
         * cancelling the call stops every try. A hedge the executor refuses is not
         * started. Listeners hear each race's outcome
         * ({@link ExecutionListener#onHedge}). For idempotent reads only.
         * @param hedging the policy; {@code null} for none
         * @return this builder
         */
        public Builder hedging(@Nullable HedgingPolicy hedging) {
            this.hedging = hedging;
            return this;
        }

        /**
         * Guards every attempt with a circuit breaker.
         * @param circuitBreaker the breaker, possibly shared with other pipelines;
         * {@code null} for none
         * @return this builder
         */
        public Builder circuitBreaker(@Nullable CircuitBreaker circuitBreaker) {
            this.circuitBreaker = circuitBreaker;
            return guard(BreakerStage.class, (circuitBreaker != null) ? new BreakerStage(circuitBreaker) : null);
        }

        /**
         * Passes every attempt through a bulkhead, inside the circuit breaker: each
         * attempt holds one of its permits until it ends, an asynchronous attempt until
         * its stage completes. A synchronous call beyond the limit waits on its thread
         * for up to the bulkhead's
         * {@link dev.resilience.core.bulkhead.BulkheadConfig#maxWait() maximum wait}, and
         * an interrupt ends that wait, and the call, at once; an asynchronous call waits
         * without a thread, its next step started by the call that gives a permit back or
         * by the timer that ends the wait. The wait is bounded by the bulkhead's maximum
         * wait alone, not by the retry policy's maximum duration, and is no part of the
         * attempt's time. A call the bulkhead refuses ends
         * {@link ExecutionStatus#REJECTED} with a
         * {@link dev.resilience.core.bulkhead.BulkheadFullException}: it is not retried,
         * goes to the fallbacks, becomes a dead letter if its work stays undone, and the
         * breaker does not count it.
         * @param bulkhead the bulkhead, possibly shared with other pipelines;
         * {@code null} for none
         * @return this builder
         */
        public Builder bulkhead(@Nullable Bulkhead bulkhead) {
            this.bulkhead = bulkhead;
            return guard(BulkheadStage.class, (bulkhead != null) ? new BulkheadStage(bulkhead) : null);
        }

        /**
         * Limits the rate of attempts, before the circuit breaker: every attempt takes a
         * permit, and a permit is never given back (not even when the breaker or the
         * bulkhead then refuses the attempt): it limits a rate. An attempt waits for a
         * permit up to the limiter's timeout: a synchronous one on its thread, where an
         * interrupt ends the wait, and the call, at once; an asynchronous one without a
         * thread, its next step started by the timer that ends the wait, and a cancelled
         * call gives its reservation up. A refusal ends the call with status
         * {@link ExecutionStatus#REJECTED} and a
         * {@link dev.resilience.core.ratelimiter.RateLimitedException}, is never retried
         * nor recorded by the breaker, and goes to the fallbacks.
         * @param rateLimiter the limiter, possibly shared with other pipelines;
         * {@code null} for none
         * @return this builder
         */
        public Builder rateLimiter(@Nullable RateLimiter rateLimiter) {
            this.rateLimiter = rateLimiter;
            return guard(RateLimiterStage.class, (rateLimiter != null) ? new RateLimiterStage(rateLimiter) : null);
        }

        /**
         * Passes every attempt through a guard, in the guards' order, instead of the
         * guard of the same kind set before. The setter of each guarding policy calls it
         * with the policy's stage, or {@code null} when the policy is removed.
         * @param kind the class of the policy's stage
         * @param guard the guard, or {@code null} for none of that kind
         * @param <G> the type of the stage
         * @return this builder
         */
        /**
         * Limits the time of each attempt without a retry policy, as a
         * {@link RetryPolicy#attemptTimeout() retry policy's attempt timeout} does: a
         * synchronous attempt that overruns it is interrupted, an asynchronous one has
         * its stage cancelled, and the attempt ends with an
         * {@link AttemptTimeoutException} (status {@link ExecutionStatus#TIMEOUT} when it
         * ends the call, and the fallbacks are tried). With a retry policy that has an
         * attempt timeout too, the shorter of the two applies; a time-limited call
         * without a retry policy is never a dead letter.
         * @param timeLimit a positive duration, or {@code null} for none
         * @return this builder
         */
        public Builder timeLimit(@Nullable Duration timeLimit) {
            if (timeLimit != null && (timeLimit.isNegative() || timeLimit.isZero())) {
                throw new IllegalArgumentException("timeLimit must be positive, was " + timeLimit);
            }
            this.timeLimit = timeLimit;
            return this;
        }

        <G extends AttemptGuard<?>> Builder guard(Class<G> kind, @Nullable G guard) {
            this.guards.removeIf(kind::isInstance);
            if (guard != null) {
                this.guards.add(guard);
            }
            return this;
        }

        /**
         * Writes a dead letter for every call whose work was not done.
         * @param deadLetters the store
         * @return this builder
         */
        public Builder deadLetters(DeadLetterStore deadLetters) {
            this.deadLetters = deadLetters;
            return this;
        }

        /**
         * Adds a listener told of every call's retries, fallbacks and outcome; listeners
         * are told in the order they were added.
         * @param listener the listener
         * @return this builder
         */
        public Builder listener(ExecutionListener listener) {
            this.listeners.add(listener);
            return this;
        }

        /**
         * Sets how arguments are written into dead letters.
         * @param argumentRenderer renders one argument; by default
         * {@link DeadLetterText#asData}, which writes strings, numbers, booleans and
         * enums as JSON and any other value as its type name, never with
         * {@code toString()}
         * @return this builder
         */
        public Builder argumentRenderer(Function<@Nullable Object, String> argumentRenderer) {
            this.argumentRenderer = argumentRenderer;
            return this;
        }

        /**
         * Sets the bound of one argument's text, and of the error message, in a dead
         * letter; a longer text is truncated with a marker, see
         * {@link DeadLetterText#truncate}.
         * @param maxBytes the bound in UTF-8 bytes;
         * {@value DeadLetterText#DEFAULT_MAX_ARGUMENT_SIZE} by default
         * @return this builder
         * @throws IllegalArgumentException if {@code maxBytes} is below 1
         */
        public Builder maxArgumentSize(int maxBytes) {
            if (maxBytes < 1) {
                throw new IllegalArgumentException("maxArgumentSize must be at least 1, was " + maxBytes);
            }
            this.maxArgumentSize = maxBytes;
            return this;
        }

        /**
         * Builds the pipeline.
         * @return the pipeline
         */
        public ResiliencePipeline build() {
            return new ResiliencePipeline(this);
        }

    }

}
