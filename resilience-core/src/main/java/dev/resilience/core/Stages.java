package dev.resilience.core;

import java.util.List;
import java.util.concurrent.Executor;

import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

/**
 * The stages of a pipeline, built once from its policies, in the order a call passes
 * them:
 *
 * <pre>
 * idempotency -&gt; fallback (dead letters beside it) -&gt; retry -&gt; hedging -&gt; guards (rate limiter, breaker, bulkhead) -&gt; attempt timeout -&gt; action
 * </pre>
 *
 * <p>
 * Each stage owns its decision ({@link IdempotencyClaim.Decision},
 * {@link FallbackStage#next}, {@link RetryDecision}, the admission and outcome of an
 * {@link AttemptGuard}, {@link AttemptTimeoutStage#limitNanos}); the synchronous and
 * asynchronous drivers only carry those decisions out, and keep the state of a call in
 * its {@link Execution}. A stage without its policy lets every call through. The guards
 * are the open end: a policy that admits attempts and hears their outcomes is one more
 * {@link AttemptGuard} in {@link Guards}, which neither driver names.
 */
final class Stages {

    final String name;

    final TimeSource time;

    final Executor executor;

    final List<ExecutionListener> listeners;

    final IdempotencyStage idempotency;

    final FallbackStage fallbacks;

    final DeadLetters deadLetters;

    final RetryStage retry;

    /**
     * The hedging policy, or {@code null}: with one, each attempt of the retry stage is a
     * {@link HedgeRace} of tries, each passing the guards and the attempt timeout on its
     * own.
     */
    final @Nullable HedgingPolicy hedging;

    final Guards guards;

    final AttemptTimeoutStage timeout;

    /**
     * Whether a call can start without an {@link Execution}: no stage needs per-call
     * state before its first attempt ends, no value is kept as a last good one, and
     * nobody listens to its steps. Such a call keeps its first attempt's state on the
     * stack and creates its execution only when that attempt did not end it with a value.
     */
    private final boolean statelessStart;

    /**
     * Whether the first attempt of a call that starts without an {@link Execution} is
     * timed: a guard uses its duration, or a dead letter would say when it began.
     * Otherwise that attempt reads the clock only if it does not end the call with a
     * value.
     */
    final boolean timesFirstAttempt;

    /**
     * Whether a call that starts without an {@link Execution} reads the clock at its
     * start: the retry stage counts it at that time, or, without guards, its timed first
     * attempt begins then.
     */
    final boolean readsCallStart;

    /**
     * Whether nothing but the engine's own code may run between the end of an attempt
     * that produced a value and the end of the call it ends: no idempotency key to
     * complete, no last good value to keep, no result predicate of a guard or of the
     * retry policy, and guards that tell when their listeners may have run. The end of
     * such an attempt, when read, is then the call's end too, unless a guard changed as
     * it heard the value ({@link Guards#changes()}).
     */
    final boolean endsAtValue;

    Stages(ResiliencePipeline pipeline, List<ExecutionListener> listeners) {
        this.name = pipeline.name();
        this.time = pipeline.timeSource();
        this.executor = pipeline.executor();
        this.listeners = listeners;
        this.idempotency = new IdempotencyStage(pipeline.idempotency(), this.time, this.executor);
        this.fallbacks = new FallbackStage(pipeline.fallbacks(), pipeline.lastGood(), pipeline.circuitBreaker());
        this.deadLetters = new DeadLetters(pipeline, pipeline.retry() != null);
        this.retry = new RetryStage(this.name, this.time, pipeline.retry());
        this.hedging = pipeline.hedging();
        this.guards = new Guards(pipeline.guards(), this.executor);
        this.timeout = new AttemptTimeoutStage(this.name, this.time, pipeline.retry(), pipeline.timeLimit());
        this.statelessStart = !this.idempotency.present() && !this.retry.hasDeadline() && !this.timeout.present()
                && this.fallbacks.offset() == 0 && listeners.isEmpty() && this.hedging == null;
        this.timesFirstAttempt = this.guards.timed() || this.deadLetters.enabled();
        this.readsCallStart = this.retry.usesStart() || (this.timesFirstAttempt && !this.guards.present());
        this.endsAtValue = !this.idempotency.present() && pipeline.lastGood() == null && !this.guards.judgesValues()
                && !this.retry.judgesValues() && this.guards.countsChanges();
    }

    /**
     * Returns how long an attempt that produced a value took, for the guards: read from
     * the clock only when a guard {@link AttemptGuard#usesDuration() uses} it, 0
     * otherwise.
     * @param attemptStart the attempt's start
     * @return the duration to tell the guards
     */
    long guardedDuration(long attemptStart) {
        return this.guards.timed() ? this.time.nanoTime() - attemptStart : 0;
    }

    /**
     * Returns whether a call may start without an {@link Execution}.
     * @param context the call's context, whose own listener needs one
     * @return {@code true} if its first attempt needs no per-call state
     */
    boolean statelessStart(CallContext context) {
        return this.statelessStart && context.listener() == ExecutionListener.NONE;
    }

}
