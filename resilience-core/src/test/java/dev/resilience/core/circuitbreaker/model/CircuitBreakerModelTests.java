package dev.resilience.core.circuitbreaker.model;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import dev.resilience.core.PropertyCheck;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerListener;
import dev.resilience.core.circuitbreaker.CircuitBreakerMetrics;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.circuitbreaker.CircuitBreakerTransition;
import dev.resilience.core.circuitbreaker.SlidingWindowType;
import dev.resilience.core.circuitbreaker.model.BreakerModel.Observation;
import dev.resilience.core.circuitbreaker.model.BreakerModel.Transition;
import dev.resilience.core.circuitbreaker.model.BreakerStep.Ending;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs random configurations and random sequences of steps against a real breaker and the
 * {@link BreakerModel}, comparing after every step whether the call was permitted, the
 * transitions heard by a listener, the state with its counts, rates and totals, and the
 * timers pending on the clock. Half of the sequences report outcomes with permits, half
 * without; a third of the configurations have automatic transitions, whose timers hand
 * their moves to an executor that runs them at once.
 */
@SuppressWarnings("removal")
class CircuitBreakerModelTests {

    private static final int SEQUENCES = 10_000;

    private static final int MAX_STEPS = 60;

    private static final float[] THRESHOLDS = { 1, 25, 50, 75, 100 };

    /**
     * Bounds of the longest wait in half open, in milliseconds: often short, so that it
     * expires.
     */
    private static final int[] MAX_WAITS_IN_HALF_OPEN = { 200, 1000, 5000 };

    private static final Instant ORIGIN = Instant.parse("2026-01-01T00:00:00Z");

    private final Map<String, Integer> coverage = new TreeMap<>();

    @Test
    void breakerWithCountWindowAgreesWithTheModelAfterEveryStep() {
        check(SlidingWindowType.COUNT);

        assertCovered();
    }

    @Test
    void breakerWithTimeWindowAgreesWithTheModelAfterEveryStep() {
        check(SlidingWindowType.TIME);

        assertCovered();
    }

    private void check(SlidingWindowType type) {
        PropertyCheck
            .forAll("breaker with a " + type + " window agrees with the model",
                    (random) -> BreakerCase.generate(random, type))
            .shrinking((failing) -> PropertyCheck.withoutRuns(failing.steps()).map(failing::withSteps))
            .holds(SEQUENCES, this::agreesWithTheModel);
    }

    /**
     * Guards against a generator that stops reaching the interesting states: each
     * transition the breaker makes by itself, a rejection in HALF_OPEN, a late outcome
     * taken by HALF_OPEN, each way a HALF_OPEN state expires and an outcome dropped by an
     * expired one must have happened in at least 1% of the sequences.
     */
    private void assertCovered() {
        for (String event : List.of("CLOSED->OPEN", "OPEN->HALF_OPEN", "HALF_OPEN->OPEN", "HALF_OPEN->CLOSED",
                "rejected in HALF_OPEN", "late outcome recorded in HALF_OPEN", "timed OPEN->HALF_OPEN",
                "timed expiry of HALF_OPEN", "HALF_OPEN expired when a permission was asked for",
                "HALF_OPEN expired when an outcome was reported",
                "outcome dropped by a HALF_OPEN state that had expired")) {
            assertThat(this.coverage.getOrDefault(event, 0)).as("sequences that saw " + event + " in " + this.coverage)
                .isGreaterThan(SEQUENCES / 100);
        }
    }

    private void agreesWithTheModel(BreakerCase sequence) {
        VirtualTimeSource clock = new VirtualTimeSource(ORIGIN);
        CircuitBreaker breaker = CircuitBreaker.of("inventory", sequence.config(), clock, Runnable::run);
        List<Transition> heard = new ArrayList<>();
        breaker.addListener(new CircuitBreakerListener() {
            @Override
            public void onStateTransition(CircuitBreakerTransition transition) {
                heard.add(new Transition(transition.from(), transition.to(),
                        Duration.between(ORIGIN, transition.at()).toNanos()));
            }
        });
        BreakerModel model = new BreakerModel(sequence.config());
        List<String> seen = new ArrayList<>();
        Deque<Call> inFlight = new ArrayDeque<>();
        for (int i = 0; i < sequence.steps().size(); i++) {
            BreakerStep step = sequence.steps().get(i);
            String where = "step " + (i + 1) + " (" + step + ")";
            CircuitBreakerState before = model.observe().state();
            switch (step.kind()) {
                case CALL, START -> {
                    Call call = Call.start(breaker, sequence.withPermits());
                    BreakerModel.State granted = model.acquire();
                    assertThat(call != null).as(where + ": permitted").isEqualTo(granted != null);
                    if (call == null && model.observe().state() == CircuitBreakerState.HALF_OPEN) {
                        seen.add("rejected in HALF_OPEN");
                    }
                    if (call != null && step.kind() == BreakerStep.Kind.CALL) {
                        call.end(breaker, step);
                        model.end(step.ending(), step.nanos(), sequence.withPermits() ? granted : null);
                    }
                    else if (call != null) {
                        inFlight.add(call.grantedBy(granted));
                    }
                }
                case FINISH -> {
                    Call call = inFlight.poll();
                    if (call != null) {
                        if (before == CircuitBreakerState.HALF_OPEN && step.ending() != Ending.IGNORED_ERROR) {
                            seen.add("late outcome recorded in HALF_OPEN");
                        }
                        call.end(breaker, step);
                        model.end(step.ending(), step.nanos(), sequence.withPermits() ? call.model() : null);
                    }
                }
                case ADVANCE -> {
                    clock.advance(Duration.ofNanos(step.nanos()));
                    model.advance(step.nanos());
                }
                case MOVE -> {
                    breaker.transitionTo(step.target());
                    model.move(step.target());
                }
            }
            assertThat(heard).as(where + ": transitions heard").isEqualTo(model.transitions());
            assertThat(clock.pendingTasks()).as(where + ": timers pending").isEqualTo(model.pendingTimers());
            if (sequence.observeAfterAdvances() || step.kind() != BreakerStep.Kind.ADVANCE) {
                assertThat(observe(breaker)).as(where + ": metrics").isEqualTo(model.observe());
            }
        }
        assertThat(observe(breaker)).as("metrics at the end").isEqualTo(model.observe());
        heard.forEach((transition) -> seen.add(transition.from() + "->" + transition.to()));
        seen.addAll(model.events());
        seen.stream().distinct().forEach((event) -> this.coverage.merge(event, 1, Integer::sum));
    }

    private static Observation observe(CircuitBreaker breaker) {
        CircuitBreakerMetrics metrics = breaker.metrics();
        return new Observation(metrics.state(), metrics.bufferedCalls(), metrics.failedCalls(), metrics.slowCalls(),
                metrics.failureRate(), metrics.slowCallRate(), metrics.successfulCallsTotal(),
                metrics.failedCallsTotal(), metrics.slowCallsTotal(), metrics.ignoredCallsTotal(),
                metrics.notPermittedCallsTotal());
    }

    /**
     * A call the real breaker permitted, with its permit when the sequence reports with
     * permits, and the state of the model that permitted it.
     *
     * @param permit the breaker's permit, or {@code null} to report without one
     * @param model the model's permitting state, once known
     */
    private record Call(CircuitBreaker.@Nullable Permit permit, BreakerModel.@Nullable State model) {

        static @Nullable Call start(CircuitBreaker breaker, boolean withPermit) {
            if (!withPermit) {
                return breaker.tryAcquirePermission() ? new Call(null, null) : null;
            }
            try {
                return new Call(breaker.acquirePermit(), null);
            }
            catch (CallNotPermittedException ex) {
                return null;
            }
        }

        Call grantedBy(BreakerModel.@Nullable State state) {
            return new Call(this.permit, state);
        }

        void end(CircuitBreaker breaker, BreakerStep step) {
            Throwable error = switch (step.ending()) {
                case SUCCESS -> null;
                case FAILURE -> new IOException("connection reset");
                case IGNORED_ERROR -> new IllegalStateException("not for the breaker");
            };
            if (this.permit == null && error == null) {
                breaker.onSuccess(step.nanos());
            }
            else if (this.permit == null) {
                breaker.onError(step.nanos(), error);
            }
            else if (error == null) {
                breaker.onSuccess(this.permit, step.nanos());
            }
            else {
                breaker.onError(this.permit, step.nanos(), error);
            }
        }
    }

    /**
     * A configuration and the steps to run on it.
     *
     * @param config the breaker's settings; {@link IllegalStateException} is ignored
     * @param observeAfterAdvances whether metrics are also read after the clock moves,
     * which makes a time window evict its old seconds early
     * @param withPermits whether outcomes are reported with the permit of their call
     * @param steps what happens, in order
     */
    record BreakerCase(CircuitBreakerConfig config, boolean observeAfterAdvances, boolean withPermits,
            List<BreakerStep> steps) {

        static BreakerCase generate(Random random, SlidingWindowType type) {
            CircuitBreakerConfig config = config(random, type);
            List<BreakerStep> steps = new ArrayList<>();
            int length = 1 + random.nextInt(MAX_STEPS);
            boolean callsInFlight = random.nextBoolean();
            for (int i = 0; i < length; i++) {
                steps.add(step(random, config, callsInFlight));
            }
            return new BreakerCase(config, random.nextInt(4) != 0, random.nextBoolean(), List.copyOf(steps));
        }

        BreakerCase withSteps(List<BreakerStep> fewer) {
            return new BreakerCase(this.config, this.observeAfterAdvances, this.withPermits, fewer);
        }

        private static CircuitBreakerConfig config(Random random, SlidingWindowType type) {
            int size = (type == SlidingWindowType.COUNT) ? 1 + random.nextInt(20) : 1 + random.nextInt(10);
            return CircuitBreakerConfig.builder()
                .slidingWindowType(type)
                .slidingWindowSize(size)
                .minimumCalls(1 + random.nextInt((type == SlidingWindowType.COUNT) ? 25 : 12))
                .failureRateThreshold(THRESHOLDS[random.nextInt(THRESHOLDS.length)])
                .slowCallRateThreshold(THRESHOLDS[random.nextInt(THRESHOLDS.length)])
                .slowCallDuration(Duration.ofMillis(1 + random.nextInt(2000)))
                .waitInOpen(Duration.ofMillis(1 + random.nextInt(5000)))
                .halfOpenCalls(1 + random.nextInt(5))
                .maxWaitInHalfOpen(Duration.ofMillis(1 + random.nextInt(MAX_WAITS_IN_HALF_OPEN[random.nextInt(3)])))
                .automaticTransitionToHalfOpen(random.nextInt(3) == 0)
                .ignoreOn(List.of(IllegalStateException.class))
                .build();
        }

        /**
         * One step: a whole call, the start or the end of a call in flight, a clock move
         * or a move by hand. Half of the sequences keep many calls in flight, so that
         * outcomes often arrive late, after the clock moved past a wait.
         */
        private static BreakerStep step(Random random, CircuitBreakerConfig config, boolean callsInFlight) {
            int roll = random.nextInt(100);
            int calls = callsInFlight ? 15 : 47;
            if (roll < calls) {
                return BreakerStep.call(ending(random), duration(random, config));
            }
            if (roll < calls + (71 - calls) / 2) {
                return BreakerStep.start();
            }
            if (roll < 71) {
                return BreakerStep.finish(ending(random), duration(random, config));
            }
            if (roll < 97) {
                return BreakerStep.advance(advance(random, config));
            }
            int target = random.nextInt(4);
            return BreakerStep.move((target < 2) ? CircuitBreakerState.CLOSED
                    : (target == 2) ? CircuitBreakerState.FORCED_OPEN : CircuitBreakerState.DISABLED);
        }

        private static Ending ending(Random random) {
            int roll = random.nextInt(100);
            return (roll < 45) ? Ending.SUCCESS : (roll < 90) ? Ending.FAILURE : Ending.IGNORED_ERROR;
        }

        /** Fast or slow, often right at the slow-call duration or just below it. */
        private static long duration(Random random, CircuitBreakerConfig config) {
            long slow = config.slowCallDuration().toNanos();
            int roll = random.nextInt(10);
            if (roll < 5) {
                return (long) (random.nextDouble() * slow);
            }
            if (roll < 8) {
                return slow + (long) (random.nextDouble() * Duration.ofSeconds(2).toNanos());
            }
            return (roll == 8) ? slow : slow - 1;
        }

        /**
         * Up to 3 seconds in milliseconds, often a few milliseconds, whole seconds,
         * exactly the wait in open or the longest wait in half open or a nanosecond short
         * of them, or past the window of a time window.
         */
        private static long advance(Random random, CircuitBreakerConfig config) {
            int roll = random.nextInt(100);
            long wait = config.waitInOpen().toNanos();
            long maxWait = config.maxWaitInHalfOpen().toNanos();
            if (roll < 40) {
                return Duration.ofMillis(random.nextInt(3001)).toNanos();
            }
            if (roll < 50) {
                return Duration.ofMillis(random.nextInt(6)).toNanos();
            }
            if (roll < 62) {
                return wait;
            }
            if (roll < 66) {
                return wait - 1;
            }
            if (roll < 72) {
                return maxWait;
            }
            if (roll < 75) {
                return maxWait - 1;
            }
            int size = config.slidingWindowSize();
            if (roll < 90) {
                return Duration.ofSeconds(random.nextInt(Math.min(size, 10) + 2)).toNanos();
            }
            return Duration.ofSeconds(Math.min(size, 10)).plusMillis(random.nextInt(2001)).toNanos();
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder(this.config.toString()).append(", metrics read after advances: ")
                .append(this.observeAfterAdvances)
                .append(", outcomes reported with permits: ")
                .append(this.withPermits);
            for (int i = 0; i < this.steps.size(); i++) {
                text.append("\n  ").append(i + 1).append(". ").append(this.steps.get(i));
            }
            return text.toString();
        }
    }

}
