package dev.resilience.core.circuitbreaker.model;

import java.util.ArrayList;
import java.util.List;

import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.circuitbreaker.SlidingWindowType;
import dev.resilience.core.circuitbreaker.model.BreakerStep.Ending;

/**
 * What a circuit breaker should do, written as plainly as possible, one call at a time:
 *
 * <ul>
 * <li>CLOSED permits every call and keeps the outcomes in its window. A count window holds the
 * last {@code size} outcomes and needs {@code min(minimumCalls, size)} of them to decide; a
 * time window holds the outcomes of the last {@code size} seconds, a second being counted from
 * the window's creation ({@code floor((now - created) / 1s)}), and needs {@code minimumCalls}.
 * After each recorded outcome, with enough calls, a failure rate or a slow-call rate
 * ({@code part * 100f / calls}) at or above its threshold opens the breaker.</li>
 * <li>OPEN rejects calls and reports the counts that opened it. The first permission asked for
 * once {@code waitInOpen} has passed since it opened moves it to HALF_OPEN, and that call is
 * the first probe.</li>
 * <li>HALF_OPEN lets {@code halfOpenCalls} probes through and rejects the rest. It records at
 * most as many outcomes as it let probes through; an ignored error gives its permit back.
 * Once it has recorded {@code halfOpenCalls} outcomes it decides with them, as CLOSED does
 * with {@code minimumCalls = halfOpenCalls}: OPEN (reporting those counts) or CLOSED with a
 * fresh window. Its rates are -1 until then.</li>
 * <li>FORCED_OPEN rejects everything, DISABLED permits everything; both record nothing and
 * report an empty window with rates -1.</li>
 * <li>A move by hand to the current FORCED_OPEN or DISABLED does nothing; any other move,
 * CLOSED to CLOSED included, is a transition and CLOSED starts a fresh window.</li>
 * <li>An outcome is recorded by the state current when it is reported, whichever state
 * permitted the call; OPEN, FORCED_OPEN and DISABLED drop it. A call is slow when it took at
 * least {@code slowCallDuration}, failed or not. The totals count what was recorded: successes
 * and failures (slow ones included), slow calls, ignored errors, and every rejected call.</li>
 * </ul>
 */
final class BreakerModel {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final CircuitBreakerConfig config;

    private long now;

    private CircuitBreakerState state = CircuitBreakerState.CLOSED;

    private long windowCreated;

    private final List<Recorded> window = new ArrayList<>();

    private long openedAt;

    private Counts opening = Counts.NONE;

    private int probesLetThrough;

    private Counts probes = Counts.NONE;

    private long notPermitted;

    private long successes;

    private long failures;

    private long slows;

    private long ignored;

    private final List<Transition> transitions = new ArrayList<>();

    BreakerModel(CircuitBreakerConfig config) {
        this.config = config;
    }

    void advance(long nanos) {
        this.now += nanos;
    }

    boolean acquire() {
        if (this.state == CircuitBreakerState.OPEN && this.now - this.openedAt >= this.config.waitInOpen().toNanos()) {
            moveTo(CircuitBreakerState.HALF_OPEN);
        }
        boolean permitted = switch (this.state) {
            case CLOSED, DISABLED -> true;
            case HALF_OPEN -> this.probesLetThrough < this.config.halfOpenCalls();
            case OPEN, FORCED_OPEN -> false;
        };
        if (!permitted) {
            this.notPermitted++;
        }
        else if (this.state == CircuitBreakerState.HALF_OPEN) {
            this.probesLetThrough++;
        }
        return permitted;
    }

    void end(Ending ending, long durationNanos) {
        if (ending == Ending.IGNORED_ERROR) {
            ignore();
            return;
        }
        Recorded outcome = new Recorded(second(), ending == Ending.FAILURE,
                durationNanos >= this.config.slowCallDuration().toNanos());
        if (this.state == CircuitBreakerState.CLOSED) {
            count(outcome);
            this.window.add(outcome);
            Counts counts = windowCounts();
            if (reached(counts, closedMinimumCalls())) {
                open(counts.snapshot(closedMinimumCalls()));
            }
        }
        else if (this.state == CircuitBreakerState.HALF_OPEN && this.probes.calls < this.probesLetThrough) {
            count(outcome);
            this.probes = this.probes.plus(outcome);
            int needed = this.config.halfOpenCalls();
            if (this.probes.calls == needed) {
                if (reached(this.probes, needed)) {
                    open(this.probes.snapshot(needed));
                }
                else {
                    moveTo(CircuitBreakerState.CLOSED);
                }
            }
        }
    }

    void move(CircuitBreakerState target) {
        if (this.state != target || target == CircuitBreakerState.CLOSED) {
            moveTo(target);
        }
    }

    /**
     * Returns what the breaker should report now.
     * @return the state, the counts and rates of the window it decides on, and the totals
     */
    Observation observe() {
        Counts counts = switch (this.state) {
            case CLOSED -> windowCounts().snapshot(closedMinimumCalls());
            case OPEN -> this.opening;
            case HALF_OPEN -> this.probes.snapshot(this.config.halfOpenCalls());
            case FORCED_OPEN, DISABLED -> Counts.NONE;
        };
        return new Observation(this.state, counts.calls, counts.failed, counts.slow, counts.failureRate,
                counts.slowCallRate, this.successes, this.failures, this.slows, this.ignored, this.notPermitted);
    }

    List<Transition> transitions() {
        return List.copyOf(this.transitions);
    }

    private void ignore() {
        if (this.state == CircuitBreakerState.CLOSED) {
            this.ignored++;
        }
        else if (this.state == CircuitBreakerState.HALF_OPEN && this.probesLetThrough > this.probes.calls) {
            this.probesLetThrough--;
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
        this.openedAt = this.now;
        moveTo(CircuitBreakerState.OPEN);
    }

    private void moveTo(CircuitBreakerState target) {
        this.transitions.add(new Transition(this.state, target, this.now));
        this.state = target;
        if (target == CircuitBreakerState.CLOSED) {
            this.window.clear();
            this.windowCreated = this.now;
        }
        else if (target == CircuitBreakerState.HALF_OPEN) {
            this.probesLetThrough = 0;
            this.probes = Counts.NONE;
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

    /** One recorded outcome, with the window second it fell in. */
    private record Recorded(long second, boolean failed, boolean slow) {
    }

    /** Counts of outcomes, with their rates once there are enough of them, else -1. */
    private record Counts(int calls, int failed, int slow, float failureRate, float slowCallRate) {

        static final Counts NONE = new Counts(0, 0, 0, -1, -1);

        Counts plus(Recorded outcome) {
            return new Counts(this.calls + 1, this.failed + (outcome.failed ? 1 : 0), this.slow + (outcome.slow ? 1 : 0),
                    -1, -1);
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
