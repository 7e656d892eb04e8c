package dev.resilience.core.circuitbreaker;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * One state of a {@link CircuitBreaker}, owning its permit and record logic. A state
 * object lives from the transition that installs it to the one that replaces it; it moves
 * the breaker only by a compare-and-set from itself, so a state the breaker has left can
 * no longer move it, and each state knows only its legal successors.
 *
 * <p>
 * An outcome reported with a permit is recorded by the state that granted it; one
 * reported without is recorded by the state current when it arrives. Either way a closed
 * state records it in its window, a half-open state takes at most as many outcomes as it
 * has let probes through, and the other states drop it. A state the breaker has left can
 * record outcomes, but no longer move the breaker.
 *
 * <p>
 * A timed state (open, half open) runs at most one timer, started when it is installed
 * and cancelled when it is left; a timer that fires anyway finds its state gone and does
 * nothing.
 */
abstract sealed class BreakerState implements CircuitBreaker.Permit {

    final CircuitBreaker breaker;

    BreakerState(CircuitBreaker breaker) {
        this.breaker = breaker;
    }

    abstract CircuitBreakerState kind();

    /**
     * Asks for permission to run one call.
     * @return {@code true} if the call may run
     */
    abstract boolean tryAcquire();

    /** Would a call asked for now be admitted? Overridden where asking has effects. */
    boolean wouldAdmit() {
        return tryAcquire();
    }

    /**
     * Gives back a permission taken by a call that will record no outcome.
     */
    void release() {
    }

    /**
     * Records the outcome of a call, moving the breaker if it decides to.
     * @param outcome how the call ended
     * @return {@code true} if this state counted the outcome
     */
    abstract boolean record(Outcome outcome);

    WindowSnapshot snapshot() {
        return WindowSnapshot.EMPTY;
    }

    @Nullable Instant probesAllowedAt() {
        return null;
    }

    /**
     * Called once, right after this state was installed.
     */
    void entered() {
    }

    /**
     * Called once, right after this state was replaced.
     */
    void left() {
    }

    /**
     * Permits every call and records outcomes in a sliding window; opens when the
     * window's rates reach a threshold.
     */
    static final class Closed extends BreakerState {

        private final SlidingWindow window;

        Closed(CircuitBreaker breaker) {
            super(breaker);
            this.window = SlidingWindow.of(breaker.config(), breaker.timeSource());
        }

        @Override
        CircuitBreakerState kind() {
            return CircuitBreakerState.CLOSED;
        }

        @Override
        boolean tryAcquire() {
            return true;
        }

        @Override
        boolean record(Outcome outcome) {
            if (outcome != Outcome.IGNORED && this.window.record(outcome)) {
                this.breaker.transition(this, new Open(this.breaker, this.window.snapshot()));
            }
            return true;
        }

        @Override
        WindowSnapshot snapshot() {
            return this.window.snapshot();
        }

    }

    /**
     * Rejects every call until the wait in open has passed; the first permission asked
     * for after that, or the timer of automatic transitions, moves the breaker to half
     * open. Keeps the counts that opened it.
     */
    static final class Open extends BreakerState {

        private final long openedAtNanos;

        private final Instant probesAllowedAt;

        private final WindowSnapshot opening;

        private final StateTimer timer = new StateTimer();

        Open(CircuitBreaker breaker, WindowSnapshot opening) {
            super(breaker);
            this.openedAtNanos = breaker.timeSource().nanoTime();
            this.probesAllowedAt = breaker.timeSource().now().plus(breaker.config().waitInOpen());
            this.opening = opening;
        }

        @Override
        CircuitBreakerState kind() {
            return CircuitBreakerState.OPEN;
        }

        @Override
        boolean tryAcquire() {
            if (waitedNanos() >= this.breaker.config().waitInOpenNanos()) {
                toHalfOpen();
            }
            return false;
        }

        @Override
        boolean wouldAdmit() {
            return waitedNanos() >= this.breaker.config().waitInOpenNanos();
        }

        @Override
        void entered() {
            if (this.breaker.config().automaticTransitionToHalfOpen()) {
                this.timer.start(this.breaker, this::toHalfOpen,
                        this.breaker.config().waitInOpenNanos() - waitedNanos());
            }
        }

        @Override
        void left() {
            this.timer.cancel();
        }

        private long waitedNanos() {
            return this.breaker.timeSource().nanoTime() - this.openedAtNanos;
        }

        private void toHalfOpen() {
            if (this.breaker.isCurrent(this)) {
                this.breaker.transition(this, new HalfOpen(this.breaker));
            }
        }

        @Override
        boolean record(Outcome outcome) {
            return false;
        }

        @Override
        WindowSnapshot snapshot() {
            return this.opening;
        }

        @Override
        Instant probesAllowedAt() {
            return this.probesAllowedAt;
        }

    }

    /**
     * Lets exactly {@code halfOpenCalls} probes through and decides once all their
     * outcomes are recorded: open again if their rates reach a threshold, else closed
     * with a fresh window. Lock-free: one counter of remaining permits, one packed count
     * of outcomes.
     *
     * <p>
     * Expires once {@code maxWaitInHalfOpen} has passed since it began: from then on it
     * lets no probe through and takes no outcome, and the first permission asked for,
     * outcome reported or timer of automatic transitions opens the breaker again with the
     * probes' counts so far.
     */
    static final class HalfOpen extends BreakerState {

        private final long startedAtNanos;

        private final int probes;

        private final Thresholds thresholds;

        private final AtomicInteger permits;

        private final AtomicLong outcomes = new AtomicLong();

        private final StateTimer timer = new StateTimer();

        HalfOpen(CircuitBreaker breaker) {
            super(breaker);
            this.startedAtNanos = breaker.timeSource().nanoTime();
            this.probes = breaker.config().halfOpenCalls();
            this.thresholds = Thresholds.of(breaker.config(), this.probes);
            this.permits = new AtomicInteger(this.probes);
        }

        @Override
        CircuitBreakerState kind() {
            return CircuitBreakerState.HALF_OPEN;
        }

        @Override
        boolean tryAcquire() {
            if (expired()) {
                expire();
                return false;
            }
            int left;
            do {
                left = this.permits.get();
                if (left == 0) {
                    return false;
                }
            }
            while (!this.permits.compareAndSet(left, left - 1));
            return true;
        }

        @Override
        boolean wouldAdmit() {
            return !expired() && this.permits.get() > 0;
        }

        @Override
        void release() {
            giveBack();
        }

        @Override
        boolean record(Outcome outcome) {
            if (expired()) {
                expire();
                return false;
            }
            if (outcome == Outcome.IGNORED) {
                return giveBack();
            }
            long packed;
            do {
                packed = this.outcomes.get();
                if (PackedCounts.calls(packed) >= issued()) {
                    return false;
                }
            }
            while (!this.outcomes.compareAndSet(packed, packed + PackedCounts.of(outcome)));
            long recorded = packed + PackedCounts.of(outcome);
            if (PackedCounts.calls(recorded) == this.probes) {
                decide(PackedCounts.calls(recorded), PackedCounts.failed(recorded), PackedCounts.slow(recorded));
            }
            return true;
        }

        @Override
        WindowSnapshot snapshot() {
            long packed = this.outcomes.get();
            return this.thresholds.snapshot(PackedCounts.calls(packed), PackedCounts.failed(packed),
                    PackedCounts.slow(packed));
        }

        @Override
        void entered() {
            if (this.breaker.config().automaticTransitionToHalfOpen()) {
                this.timer.start(this.breaker, this::expire, this.breaker.config().maxWaitInHalfOpenNanos()
                        - (this.breaker.timeSource().nanoTime() - this.startedAtNanos));
            }
        }

        @Override
        void left() {
            this.timer.cancel();
        }

        private boolean expired() {
            return this.breaker.timeSource().nanoTime() - this.startedAtNanos >= this.breaker.config()
                .maxWaitInHalfOpenNanos();
        }

        private void expire() {
            if (this.breaker.isCurrent(this)) {
                this.breaker.transition(this, new Open(this.breaker, snapshot()));
            }
        }

        private void decide(int calls, int failed, int slow) {
            if (this.thresholds.reached(calls, failed, slow)) {
                this.breaker.transition(this, new Open(this.breaker, this.thresholds.snapshot(calls, failed, slow)));
            }
            else {
                this.breaker.transition(this, new Closed(this.breaker));
            }
        }

        private int issued() {
            return this.probes - this.permits.get();
        }

        private boolean giveBack() {
            int left;
            do {
                left = this.permits.get();
                if (this.probes - left <= PackedCounts.calls(this.outcomes.get())) {
                    return false;
                }
            }
            while (!this.permits.compareAndSet(left, left + 1));
            return true;
        }

    }

    /**
     * Set by hand: rejects every call and records nothing.
     */
    static final class ForcedOpen extends BreakerState {

        ForcedOpen(CircuitBreaker breaker) {
            super(breaker);
        }

        @Override
        CircuitBreakerState kind() {
            return CircuitBreakerState.FORCED_OPEN;
        }

        @Override
        boolean tryAcquire() {
            return false;
        }

        @Override
        boolean record(Outcome outcome) {
            return false;
        }

    }

    /**
     * Set by hand: permits every call and records nothing.
     */
    static final class Disabled extends BreakerState {

        Disabled(CircuitBreaker breaker) {
            super(breaker);
        }

        @Override
        CircuitBreakerState kind() {
            return CircuitBreakerState.DISABLED;
        }

        @Override
        boolean tryAcquire() {
            return true;
        }

        @Override
        boolean record(Outcome outcome) {
            return false;
        }

    }

}
