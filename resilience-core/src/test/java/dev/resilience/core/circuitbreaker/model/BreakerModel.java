package dev.resilience.core.circuitbreaker.model;

import java.util.ArrayList;
import java.util.List;

import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.circuitbreaker.SlidingWindowType;
import dev.resilience.core.circuitbreaker.model.BreakerStep.Ending;
import org.jspecify.annotations.Nullable;

/**
 * What a circuit breaker should do, written as plainly as possible, one call at a time:
 *
 * <ul>
 * <li>CLOSED permits every call and keeps the outcomes in its window. A count window
 * holds the last {@code size} outcomes and needs {@code min(minimumCalls, size)} of them
 * to decide; a time window holds the outcomes of the last {@code size} seconds, a second
 * being counted from the window's creation ({@code floor((now - created) / 1s)}), and
 * needs {@code minimumCalls}. After each recorded outcome, with enough calls, a failure
 * rate or a slow-call rate ({@code part * 100f / calls}) at or above its threshold opens
 * the breaker.</li>
 * <li>OPEN rejects calls and reports the counts that opened it. The first permission
 * asked for once {@code waitInOpen} has passed since it opened moves it to HALF_OPEN, and
 * that call is the first probe. With automatic transitions it moves to HALF_OPEN by
 * itself at exactly {@code waitInOpen} after it opened.</li>
 * <li>HALF_OPEN lets {@code halfOpenCalls} probes through and rejects the rest. It
 * records at most as many outcomes as it let probes through; an ignored error gives its
 * permit back. Once it has recorded {@code halfOpenCalls} outcomes it decides with them,
 * as CLOSED does with {@code minimumCalls = halfOpenCalls}: OPEN (reporting those counts)
 * or CLOSED with a fresh window. Its rates are -1 until then.</li>
 * <li>A HALF_OPEN state expires once {@code maxWaitInHalfOpen} has passed since it began:
 * it then lets no probe through and takes no outcome, not even an ignored error. The
 * first permission asked for, or outcome reported to it while it is current, moves the
 * breaker to OPEN with the probes' counts so far and a fresh wait, and is rejected or
 * dropped. With automatic transitions that move happens by itself at exactly
 * {@code maxWaitInHalfOpen}.</li>
 * <li>FORCED_OPEN rejects everything, DISABLED permits everything; both record nothing
 * and report an empty window with rates -1.</li>
 * <li>A move by hand to the current FORCED_OPEN or DISABLED does nothing; any other move,
 * CLOSED to CLOSED included, is a transition and CLOSED starts a fresh window.</li>
 * <li>An outcome reported without a permit is recorded by the state current when it is
 * reported, whichever state permitted the call; one reported with a permit is recorded by
 * the state that granted the permit, which moves the breaker only while it is still
 * current. OPEN, FORCED_OPEN and DISABLED drop it; a CLOSED state the breaker has left
 * only counts it in the totals. A call is slow when it took at least
 * {@code slowCallDuration}, failed or not. The totals count what was recorded: successes
 * and failures (slow ones included), slow calls, ignored errors, and every rejected
 * call.</li>
 * <li>With automatic transitions exactly one timer is pending while the breaker is OPEN
 * or HALF_OPEN, and none otherwise; without them, none ever.</li>
 * </ul>
 */
final class BreakerModel {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final CircuitBreakerConfig config;

    private long now;

    private State current = new State(CircuitBreakerState.CLOSED, 0);

    private long windowCreated;

    private final List<Recorded> window = new ArrayList<>();

    private Counts opening = Counts.NONE;

    private long notPermitted;

    private long successes;

    private long failures;

    private long slows;

    private long ignored;

    private final List<Transition> transitions = new ArrayList<>();

    private final List<String> events = new ArrayList<>();

    BreakerModel(CircuitBreakerConfig config) {
        this.config = config;
    }

    void advance(long nanos) {
        long target = this.now + nanos;
        long due = timerDue();
        while (due >= 0 && due <= target) {
            this.now = due;
            if (this.current.kind == CircuitBreakerState.OPEN) {
                this.events.add("timed OPEN->HALF_OPEN");
                moveTo(CircuitBreakerState.HALF_OPEN);
            }
            else {
                this.events.add("timed expiry of HALF_OPEN");
                expire();
            }
            due = timerDue();
        }
        this.now = target;
    }

    /**
     * Asks for permission to run one call.
     * @return the state that permitted the call, or {@code null} if it was rejected
     */
    @Nullable State acquire() {
        if (this.current.kind == CircuitBreakerState.OPEN
                && this.now - this.current.since >= this.config.waitInOpen().toNanos()) {
            moveTo(CircuitBreakerState.HALF_OPEN);
        }
        if (this.current.kind == CircuitBreakerState.HALF_OPEN && expired(this.current)) {
            this.events.add("HALF_OPEN expired when a permission was asked for");
            expire();
        }
        boolean permitted = switch (this.current.kind) {
            case CLOSED, DISABLED -> true;
            case HALF_OPEN -> this.current.probesLetThrough < this.config.halfOpenCalls();
            case OPEN, FORCED_OPEN -> false;
        };
        if (!permitted) {
            this.notPermitted++;
            return null;
        }
        if (this.current.kind == CircuitBreakerState.HALF_OPEN) {
            this.current.probesLetThrough++;
        }
        return this.current;
    }

    /**
     * Reports how a call ended.
     * @param ending how it ended
     * @param durationNanos how long it took
     * @param permit the state that permitted it, or {@code null} to report it to the
     * current state
     */
    void end(Ending ending, long durationNanos, @Nullable State permit) {
        State recorder = (permit != null) ? permit : this.current;
        if (recorder.kind == CircuitBreakerState.HALF_OPEN && expired(recorder)) {
            if (recorder == this.current) {
                this.events.add("HALF_OPEN expired when an outcome was reported");
                expire();
            }
            else {
                this.events.add("outcome dropped by a HALF_OPEN state that had expired");
            }
            return;
        }
        if (ending == Ending.IGNORED_ERROR) {
            ignore(recorder);
            return;
        }
        Recorded outcome = new Recorded(second(), ending == Ending.FAILURE,
                durationNanos >= this.config.slowCallDuration().toNanos());
        if (recorder.kind == CircuitBreakerState.CLOSED) {
            count(outcome);
            if (recorder == this.current) {
                this.window.add(outcome);
                Counts counts = windowCounts();
                if (reached(counts, closedMinimumCalls())) {
                    open(counts.snapshot(closedMinimumCalls()));
                }
            }
        }
        else if (recorder.kind == CircuitBreakerState.HALF_OPEN && recorder.probes.calls < recorder.probesLetThrough) {
            count(outcome);
            recorder.probes = recorder.probes.plus(outcome);
            int needed = this.config.halfOpenCalls();
            if (recorder == this.current && recorder.probes.calls == needed) {
                if (reached(recorder.probes, needed)) {
                    open(recorder.probes.snapshot(needed));
                }
                else {
                    moveTo(CircuitBreakerState.CLOSED);
                }
            }
        }
    }

    void move(CircuitBreakerState target) {
        if (this.current.kind != target || target == CircuitBreakerState.CLOSED) {
            moveTo(target);
        }
    }

    /**
     * Returns what the breaker should report now.
     * @return the state, the counts and rates of the window it decides on, and the totals
     */
    Observation observe() {
        Counts counts = switch (this.current.kind) {
            case CLOSED -> windowCounts().snapshot(closedMinimumCalls());
            case OPEN -> this.opening;
            case HALF_OPEN -> this.current.probes.snapshot(this.config.halfOpenCalls());
            case FORCED_OPEN, DISABLED -> Counts.NONE;
        };
        return new Observation(this.current.kind, counts.calls, counts.failed, counts.slow, counts.failureRate,
                counts.slowCallRate, this.successes, this.failures, this.slows, this.ignored, this.notPermitted);
    }

    List<Transition> transitions() {
        return List.copyOf(this.transitions);
    }

    /**
     * Returns the timers that should be pending on the breaker's clock.
     * @return 1 while a timed state is current with automatic transitions, else 0
     */
    int pendingTimers() {
        return (timerDue() >= 0) ? 1 : 0;
    }

    /**
     * Returns the rare things that happened, for the generator's coverage.
     * @return the events, in order
     */
    List<String> events() {
        return List.copyOf(this.events);
    }

    private long timerDue() {
        if (!this.config.automaticTransitionToHalfOpen()) {
            return -1;
        }
        return switch (this.current.kind) {
            case OPEN -> this.current.since + this.config.waitInOpen().toNanos();
            case HALF_OPEN -> this.current.since + this.config.maxWaitInHalfOpen().toNanos();
            default -> -1;
        };
    }

    private boolean expired(State halfOpen) {
        return this.now - halfOpen.since >= this.config.maxWaitInHalfOpen().toNanos();
    }

    private void expire() {
        open(this.current.probes.snapshot(this.config.halfOpenCalls()));
    }

    private void ignore(State recorder) {
        if (recorder.kind == CircuitBreakerState.CLOSED) {
            this.ignored++;
        }
        else if (recorder.kind == CircuitBreakerState.HALF_OPEN && recorder.probesLetThrough > recorder.probes.calls) {
            recorder.probesLetThrough--;
            this.ignored++;
        }
    }

    private void count(Recorded outcome) {
        if (outcome.failed) {
            this.failures++;
        }
        else {
            this.successes++;
        }
        if (outcome.slow) {
            this.slows++;
        }
    }

    private void open(Counts counts) {
        this.opening = counts;
        moveTo(CircuitBreakerState.OPEN);
    }

    private void moveTo(CircuitBreakerState target) {
        this.transitions.add(new Transition(this.current.kind, target, this.now));
        this.current = new State(target, this.now);
        if (target == CircuitBreakerState.CLOSED) {
            this.window.clear();
            this.windowCreated = this.now;
        }
    }

    private boolean reached(Counts counts, int minimumCalls) {
        return counts.calls >= minimumCalls && (rate(counts.failed, counts.calls) >= this.config.failureRateThreshold()
                || rate(counts.slow, counts.calls) >= this.config.slowCallRateThreshold());
    }

    private Counts windowCounts() {
        boolean byCount = this.config.slidingWindowType() == SlidingWindowType.COUNT;
        int size = this.config.slidingWindowSize();
        Counts counts = Counts.NONE;
        for (int i = 0; i < this.window.size(); i++) {
            Recorded outcome = this.window.get(i);
            boolean inWindow = byCount ? i >= this.window.size() - size : outcome.second > second() - size;
            if (inWindow) {
                counts = counts.plus(outcome);
            }
        }
        return counts;
    }

    private int closedMinimumCalls() {
        int minimumCalls = this.config.minimumCalls();
        return (this.config.slidingWindowType() == SlidingWindowType.COUNT)
                ? Math.min(minimumCalls, this.config.slidingWindowSize()) : minimumCalls;
    }

    private long second() {
        return Math.floorDiv(this.now - this.windowCreated, NANOS_PER_SECOND);
    }

    private static float rate(int part, int calls) {
        return part * 100f / calls;
    }

    /**
     * One state the breaker was in, from the transition that entered it; a permit names
     * the state that granted it.
     */
    static final class State {

        private final CircuitBreakerState kind;

        private final long since;

        private int probesLetThrough;

        private Counts probes = Counts.NONE;

        private State(CircuitBreakerState kind, long since) {
            this.kind = kind;
            this.since = since;
        }

    }

    /** One recorded outcome, with the window second it fell in. */
    private record Recorded(long second, boolean failed, boolean slow) {
    }

    /** Counts of outcomes, with their rates once there are enough of them, else -1. */
    private record Counts(int calls, int failed, int slow, float failureRate, float slowCallRate) {

        static final Counts NONE = new Counts(0, 0, 0, -1, -1);

        Counts plus(Recorded outcome) {
            return new Counts(this.calls + 1, this.failed + (outcome.failed ? 1 : 0),
                    this.slow + (outcome.slow ? 1 : 0), -1, -1);
        }

        Counts snapshot(int minimumCalls) {
            boolean enough = this.calls >= minimumCalls;
            return new Counts(this.calls, this.failed, this.slow, enough ? rate(this.failed, this.calls) : -1,
                    enough ? rate(this.slow, this.calls) : -1);
        }
    }

    /**
     * What a breaker reports at one moment.
     *
     * @param state the state
     * @param bufferedCalls the calls in the window the state decides on
     * @param failedCalls the failed ones among them
     * @param slowCalls the slow ones among them
     * @param failureRate their failure rate in percent, or -1
     * @param slowCallRate their slow-call rate in percent, or -1
     * @param successfulCallsTotal successes recorded since creation
     * @param failedCallsTotal failures recorded since creation
     * @param slowCallsTotal slow calls recorded since creation
     * @param ignoredCallsTotal ignored errors recorded since creation
     * @param notPermittedCallsTotal calls rejected since creation
     */
    record Observation(CircuitBreakerState state, int bufferedCalls, int failedCalls, int slowCalls, float failureRate,
            float slowCallRate, long successfulCallsTotal, long failedCallsTotal, long slowCallsTotal,
            long ignoredCallsTotal, long notPermittedCallsTotal) {
    }

    /**
     * A change of state.
     *
     * @param from the state left
     * @param to the state entered
     * @param atNanos when, on the clock of the breaker
     */
    record Transition(CircuitBreakerState from, CircuitBreakerState to, long atNanos) {
    }

}
