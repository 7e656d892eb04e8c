package dev.resilience.core.circuitbreaker;

import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;

/**
 * A circuit breaker: CLOSED while calls go well, OPEN (rejecting calls) once the failure
 * rate or the slow-call rate in its sliding window reaches a threshold, HALF_OPEN after
 * the wait in open to let a few probe calls decide between OPEN and CLOSED; FORCED_OPEN
 * and DISABLED are set by hand.
 *
 * <p>
 * A caller asks for a {@link Permit} ({@link #acquirePermit()}), runs the call, then
 * reports its outcome with that permit ({@link #onSuccess(Permit, long)},
 * {@link #onError(Permit, long, Throwable)}). The outcome is recorded by the state that
 * granted the permit: a HALF_OPEN state decides on the outcomes of exactly its own
 * probes, and a call permitted before a transition cannot take a probe's place after it.
 *
 * <p>
 * The deprecated permit-less methods ({@link #acquirePermission()},
 * {@link #tryAcquirePermission()}, {@link #onSuccess(long)},
 * {@link #onError(long, Throwable)}, {@link #releasePermission()}) record an outcome in
 * the state current when it is reported instead: a call that ends after the breaker
 * opened is dropped; one that ends in a later CLOSED state is recorded there; a HALF_OPEN
 * state records at most as many outcomes as it let probes through.
 *
 * <p>
 * A HALF_OPEN state lasts at most {@link CircuitBreakerConfig#maxWaitInHalfOpen()}: if
 * its probes have not all reported by then, the breaker opens again for a fresh wait in
 * open and the outcomes those probes report later with their permits are ignored, so a
 * probe that never ends cannot hold the breaker half open. (Reported without a permit, a
 * late outcome that arrives in a later HALF_OPEN state is taken as one of that state's
 * probes.)
 *
 * <p>
 * Thread-safe without locks on the hot path: the state is one {@link AtomicReference}
 * swapped by compare-and-set, so each transition happens once and its listeners run once,
 * after it. The default count window is lock-free; a time window holds a short lock per
 * call. Time is read only from the {@link TimeSource}. The moves from OPEN to HALF_OPEN
 * and from an expired HALF_OPEN back to OPEN happen on the first permission asked for (or
 * outcome reported) after their time, on the caller's thread, without a timer. With
 * {@link CircuitBreakerConfig#automaticTransitionToHalfOpen()} they are also timed:
 * entering OPEN or HALF_OPEN schedules one task on the time source, cancelled when the
 * state is left. The timer thread only hands the move to the breaker's {@link Executor},
 * where it and its listeners run; a move whose state has already been left does nothing.
 *
 * <p>
 * Longer than 400 lines because it still offers the deprecated permit-less way of
 * recording a call beside the one with a {@link Permit}; once they are removed it fits
 * the bound.
 */
public final class CircuitBreaker {

    private static final System.Logger LOGGER = System.getLogger(CircuitBreaker.class.getName());

    /**
     * How many state changes one permission request follows before it gives up. Only
     * waits of a few nanoseconds on a real clock, where every open state has waited long
     * enough and every half-open one too long by the time it is asked, come near it.
     */
    private static final int MAX_MOVES_PER_PERMISSION = 8;

    private final String name;

    private final CircuitBreakerConfig config;

    private final TimeSource timeSource;

    private final Executor executor;

    private final long slowCallDurationNanos;

    private final AtomicReference<BreakerState> state;

    private final List<CircuitBreakerListener> listeners = new CopyOnWriteArrayList<>();

    private final LongAdder successfulCalls = new LongAdder();

    private final LongAdder failedCalls = new LongAdder();

    private final LongAdder slowCalls = new LongAdder();

    private final LongAdder ignoredCalls = new LongAdder();

    private final LongAdder notPermittedCalls = new LongAdder();

    private final AtomicLong stateChanges = new AtomicLong();

    private CircuitBreaker(String name, CircuitBreakerConfig config, TimeSource timeSource, Executor executor) {
        this.name = Objects.requireNonNull(name, "name");
        this.config = Objects.requireNonNull(config, "config");
        this.timeSource = Objects.requireNonNull(timeSource, "timeSource");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.slowCallDurationNanos = config.slowCallDurationNanos();
        this.state = new AtomicReference<>(new BreakerState.Closed(this));
    }

    /**
     * Creates a CLOSED breaker with an empty window whose timed transitions, if
     * {@link CircuitBreakerConfig#automaticTransitionToHalfOpen()} asks for them, run
     * with their listeners on {@link ForkJoinPool#commonPool()}, never on the thread that
     * fires the time source's timers; with a {@link VirtualTimeSource}, on the thread
     * that advances the time, as its timers do.
     * @param name the breaker's name, used in events, exceptions and meters
     * @param config its settings
     * @param timeSource the clock for its windows, waits, timers and event times
     * @return the breaker
     */
    public static CircuitBreaker of(String name, CircuitBreakerConfig config, TimeSource timeSource) {
        return of(name, config, timeSource, defaultExecutor(timeSource));
    }

    static Executor defaultExecutor(TimeSource timeSource) {
        return (timeSource instanceof VirtualTimeSource) ? Runnable::run : ForkJoinPool.commonPool();
    }

    /**
     * Creates a CLOSED breaker with an empty window.
     * @param name the breaker's name, used in events, exceptions and meters
     * @param config its settings
     * @param timeSource the clock for its windows, waits, timers and event times
     * @param executor where the timed transitions of
     * {@link CircuitBreakerConfig#automaticTransitionToHalfOpen()} and their listeners
     * run; the timer thread only hands them over. Transitions caused by a call run on the
     * caller's thread whatever this is.
     * @return the breaker
     */
    public static CircuitBreaker of(String name, CircuitBreakerConfig config, TimeSource timeSource,
            Executor executor) {
        return new CircuitBreaker(name, config, timeSource, executor);
    }

    /**
     * Returns the breaker's name.
     * @return the name
     */
    public String name() {
        return this.name;
    }

    /**
     * Returns the breaker's settings.
     * @return the configuration
     */
    public CircuitBreakerConfig config() {
        return this.config;
    }

    /**
     * Returns the current state. Without automatic transitions, an OPEN breaker whose
     * wait has passed still reports OPEN, and a HALF_OPEN one whose longest wait has
     * passed still reports HALF_OPEN, until a permission is asked for or an outcome
     * reported.
     * @return the state
     */
    public CircuitBreakerState state() {
        return this.state.get().kind();
    }

    /**
     * Returns how many times the breaker has moved from one state to another since it was
     * created, resets of an open or manual state and forced moves included; a reset of a
     * CLOSED breaker, which stays CLOSED, is none. A move counts before its listeners
     * run, on the thread that makes it: a caller that reads the same count before and
     * after being granted a permit, or reporting an outcome, knows that no listener of a
     * move ran on its own thread meanwhile (a refused permit runs the listeners of
     * refused calls without a move).
     * @return the number of moves between states
     */
    public long stateChanges() {
        return this.stateChanges.get();
    }

    /**
     * Answers whether a call asked for now would be permitted, without taking a permit,
     * counting anything or moving the breaker: {@code true} when CLOSED or DISABLED, when
     * HALF_OPEN with a probe left and its longest wait not yet passed, and when OPEN with
     * its wait in open passed (the next call moves it to HALF_OPEN and is its first
     * probe); {@code false} otherwise, and always when FORCED_OPEN. For showing or hiding
     * a feature: the answer may change before the call is made, which still asks for its
     * own permit.
     * @return {@code true} if a call asked for now would run
     */
    public boolean wouldPermitCall() {
        return this.state.get().wouldAdmit();
    }

    /**
     * Asks for permission to run one call.
     * @throws CallNotPermittedException if the breaker rejects the call; it is counted as
     * not permitted and listeners are told
     * @deprecated since 0.1.0, for removal: use {@link #acquirePermit()} and report the
     * outcome with its permit, so that the state which let the call through records it (a
     * half-open state then decides on exactly its own probes)
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public void acquirePermission() {
        acquirePermit();
    }

    /**
     * Asks for permission to run one call, and returns the permit whose state will record
     * the call's outcome. Allocates nothing.
     * @return the permit, to pass to {@link #onSuccess(Permit, long)} or
     * {@link #onError(Permit, long, Throwable)}
     * @throws CallNotPermittedException if the breaker rejects the call; it is counted as
     * not permitted and listeners are told
     */
    public Permit acquirePermit() {
        BreakerState current = this.state.get();
        int moves = 0;
        while (!current.tryAcquire()) {
            BreakerState latest = this.state.get();
            if (latest == current || ++moves > MAX_MOVES_PER_PERMISSION) {
                notPermitted();
                throw new CallNotPermittedException(this.name, latest.kind(), latest.probesAllowedAt());
            }
            current = latest;
        }
        return current;
    }

    /**
     * Records a successful call in the state that permitted it.
     * @param permit the call's permit
     * @param durationNanos how long the call took; from the slow-call duration on it
     * counts as slow
     */
    public void onSuccess(Permit permit, long durationNanos) {
        record((BreakerState) permit, Outcome.of(false, isSlow(durationNanos)));
    }

    /**
     * Records a call that returned a value in the state that permitted it: as a failure
     * when the configuration's {@link CircuitBreakerConfig#isFailureResult result
     * predicate} matches the value, else as a success. When the predicate throws, the
     * call is recorded as {@link #onError(Permit, long, Throwable)} records that
     * exception or {@link Error}, and it is thrown as it is: the permit is settled either
     * way.
     * @param permit the call's permit
     * @param durationNanos how long the call took
     * @param result the value the call returned
     * @throws RuntimeException what the predicate threw
     * @throws Error what the predicate threw
     */
    public void onResult(Permit permit, long durationNanos, @Nullable Object result) {
        boolean failed;
        try {
            failed = this.config.isFailureResult(result);
        }
        catch (RuntimeException | Error ex) {
            onError(permit, durationNanos, ex);
            throw ex;
        }
        record((BreakerState) permit, Outcome.of(failed, isSlow(durationNanos)));
    }

    /**
     * Records a call that ended with an error in the state that permitted it, classified
     * by the configuration: an ignored error gives the permit back and counts as ignored,
     * a recorded one counts as a failure, any other as a success.
     * @param permit the call's permit
     * @param durationNanos how long the call took
     * @param error the error the call ended with
     */
    public void onError(Permit permit, long durationNanos, Throwable error) {
        record((BreakerState) permit, outcomeOf(durationNanos, error));
    }

    /**
     * Gives back the permit of a call that will record no outcome (cancelled, for
     * instance), to the state that granted it: a HALF_OPEN state may then let another
     * probe through; elsewhere this does nothing.
     * @param permit the call's permit
     */
    public void release(Permit permit) {
        ((BreakerState) permit).release();
    }

    /**
     * Asks for permission to run one call, answering instead of throwing.
     * @return {@code true} if the call may run
     * @deprecated since 0.1.0, for removal: use {@link #acquirePermit()}, which throws a
     * {@link CallNotPermittedException} where this answers {@code false}, and report the
     * outcome with its permit
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public boolean tryAcquirePermission() {
        try {
            acquirePermit();
            return true;
        }
        catch (CallNotPermittedException ex) {
            return false;
        }
    }

    /**
     * Gives back a permission without recording an outcome, for a call that did not run
     * to an outcome (cancelled, for instance). Only a HALF_OPEN breaker has permissions
     * to give back; elsewhere this does nothing.
     * @deprecated since 0.1.0, for removal: use {@link #release(Permit)}, which gives the
     * permit back to the state that granted it, not to whichever state is current
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public void releasePermission() {
        this.state.get().release();
    }

    /**
     * Records a successful call.
     * @param durationNanos how long the call took; from the slow-call duration on it
     * counts as slow
     * @deprecated since 0.1.0, for removal: use {@link #onSuccess(Permit, long)}, which
     * records the call in the state that permitted it
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public void onSuccess(long durationNanos) {
        record(this.state.get(), Outcome.of(false, isSlow(durationNanos)));
    }

    /**
     * Records a call that ended with an error, classified by the configuration: an
     * ignored error gives the permission back and counts as ignored, a recorded one
     * counts as a failure, any other as a success.
     * @param durationNanos how long the call took; from the slow-call duration on it
     * counts as slow
     * @param error the error the call ended with
     * @deprecated since 0.1.0, for removal: use
     * {@link #onError(Permit, long, Throwable)}, which records the call in the state that
     * permitted it
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public void onError(long durationNanos, Throwable error) {
        record(this.state.get(), outcomeOf(durationNanos, error));
    }

    /**
     * Moves the breaker by hand: to {@link CircuitBreakerState#FORCED_OPEN},
     * {@link CircuitBreakerState#DISABLED}, or {@link CircuitBreakerState#CLOSED}, which
     * always starts a fresh window (from CLOSED too). Moving to the current manual state
     * does nothing.
     * @param target the state to move to
     * @throws IllegalArgumentException for {@link CircuitBreakerState#OPEN} or
     * {@link CircuitBreakerState#HALF_OPEN}, which only the breaker itself enters
     */
    public void transitionTo(CircuitBreakerState target) {
        if (target == CircuitBreakerState.OPEN || target == CircuitBreakerState.HALF_OPEN) {
            throw new IllegalArgumentException("Circuit breaker '" + this.name + "' cannot be moved to " + target
                    + " by hand; only to CLOSED, FORCED_OPEN or DISABLED");
        }
        BreakerState current;
        do {
            current = this.state.get();
            if (current.kind() == target && target != CircuitBreakerState.CLOSED) {
                return;
            }
        }
        while (!transition(current, manualState(target)));
    }

    /**
     * Puts the breaker back as it was created: CLOSED with an empty window, whatever its
     * state, a FORCED_OPEN or DISABLED one included. Listeners hear of a transition when
     * the state was not CLOSED; a CLOSED breaker gets its fresh window without one. The
     * totals since creation ({@link CircuitBreakerMetrics#successfulCallsTotal()} and the
     * others) are kept, so the counters read from them never go back. For tests, between
     * one and the next.
     * <p>
     * Thread-safe and safe while calls run: a call permitted before the reset runs on and
     * reports its outcome with its permit to the state that granted it, which is no
     * longer current, so the outcome counts in the totals but not in the fresh window and
     * moves the breaker nowhere; a probe of a former HALF_OPEN state likewise.
     */
    public void reset() {
        BreakerState current;
        BreakerState fresh;
        do {
            current = this.state.get();
            fresh = new BreakerState.Closed(this);
        }
        while (!((current.kind() == CircuitBreakerState.CLOSED) ? replaceQuietly(current, fresh)
                : transition(current, fresh)));
    }

    /**
     * Returns the current state with its window's counts and the totals since creation.
     * @return a snapshot of the metrics
     */
    public CircuitBreakerMetrics metrics() {
        BreakerState current = this.state.get();
        WindowSnapshot window = current.snapshot();
        return new CircuitBreakerMetrics(current.kind(), window.failureRate(), window.slowCallRate(), window.calls(),
                window.failed(), window.slow(), this.successfulCalls.sum(), this.failedCalls.sum(),
                this.slowCalls.sum(), this.ignoredCalls.sum(), this.notPermittedCalls.sum());
    }

    /**
     * Adds a listener for state transitions and rejected calls.
     * @param listener the listener
     */
    public void addListener(CircuitBreakerListener listener) {
        this.listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    TimeSource timeSource() {
        return this.timeSource;
    }

    boolean isCurrent(BreakerState candidate) {
        return this.state.get() == candidate;
    }

    /**
     * Hands a timed transition from the timer thread to the executor. A rejection leaves
     * the move to the next call.
     * @param move the transition, which checks that its state is still current
     */
    void handOver(Runnable move) {
        try {
            this.executor.execute(move);
        }
        catch (RuntimeException ex) {
            LOGGER.log(Level.WARNING, "Executor of circuit breaker '" + this.name
                    + "' refused a timed transition; the next call will make it", ex);
        }
    }

    /**
     * Replaces {@code from} with {@code to} if {@code from} is still current, cancels the
     * timer of {@code from}, starts the one of {@code to}, then tells the listeners.
     * @return {@code true} if this call made the transition
     */
    boolean transition(BreakerState from, BreakerState to) {
        if (!this.state.compareAndSet(from, to)) {
            return false;
        }
        this.stateChanges.incrementAndGet();
        from.left();
        to.entered();
        if (!this.listeners.isEmpty()) {
            CircuitBreakerTransition transition = new CircuitBreakerTransition(this.name, from.kind(), to.kind(),
                    this.timeSource.now());
            for (CircuitBreakerListener listener : this.listeners) {
                try {
                    listener.onStateTransition(transition);
                }
                catch (RuntimeException ex) {
                    LOGGER.log(Level.WARNING, "Listener of circuit breaker '" + this.name + "' failed", ex);
                }
            }
        }
        return true;
    }

    private boolean replaceQuietly(BreakerState from, BreakerState to) {
        if (!this.state.compareAndSet(from, to)) {
            return false;
        }
        from.left();
        to.entered();
        return true;
    }

    private void notPermitted() {
        this.notPermittedCalls.increment();
        if (!this.listeners.isEmpty()) {
            Instant at = this.timeSource.now();
            for (CircuitBreakerListener listener : this.listeners) {
                try {
                    listener.onCallNotPermitted(this.name, at);
                }
                catch (RuntimeException ex) {
                    LOGGER.log(Level.WARNING, "Listener of circuit breaker '" + this.name + "' failed", ex);
                }
            }
        }
    }

    private Outcome outcomeOf(long durationNanos, Throwable error) {
        if (this.config.isIgnored(error)) {
            return Outcome.IGNORED;
        }
        return Outcome.of(this.config.isRecordedAsFailure(error), isSlow(durationNanos));
    }

    private void record(BreakerState recorder, Outcome outcome) {
        if (!recorder.record(outcome)) {
            return;
        }
        if (outcome == Outcome.IGNORED) {
            this.ignoredCalls.increment();
            return;
        }
        (outcome.failed ? this.failedCalls : this.successfulCalls).increment();
        if (outcome.slow) {
            this.slowCalls.increment();
        }
    }

    private boolean isSlow(long durationNanos) {
        return durationNanos >= this.slowCallDurationNanos;
    }

    private BreakerState manualState(CircuitBreakerState target) {
        return switch (target) {
            case FORCED_OPEN -> new BreakerState.ForcedOpen(this);
            case DISABLED -> new BreakerState.Disabled(this);
            default -> new BreakerState.Closed(this);
        };
    }

    /**
     * Proof that a breaker permitted a call, naming the state that will record its
     * outcome. Obtained from {@link #acquirePermit()}; opaque.
     */
    public sealed interface Permit permits BreakerState {

    }

    @Override
    public String toString() {
        return "CircuitBreaker[name=" + this.name + ", state=" + state() + "]";
    }

}
