package dev.resilience.core.circuitbreaker.model;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import dev.resilience.core.PropertyCheck;
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
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs random configurations and random sequences of steps against a real breaker and the
 * {@link BreakerModel}, comparing after every step whether the call was permitted, the
 * transitions heard by a listener, and the state with its counts, rates and totals.
 */
class CircuitBreakerModelTest {

    private static final int SEQUENCES = 10_000;

    private static final int MAX_STEPS = 60;

    private static final float[] THRESHOLDS = { 1, 25, 50, 75, 100 };

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
        PropertyCheck.forAll("breaker with a " + type + " window agrees with the model",
                    (random) -> BreakerCase.generate(random, type))
            .shrinking((failing) -> PropertyCheck.withoutRuns(failing.steps()).map(failing::withSteps))
            .holds(SEQUENCES, this::agreesWithTheModel);
    }

    /**
     * Guards against a generator that stops reaching the interesting states: each automatic
     * transition, a rejection in HALF_OPEN and a late outcome taken by HALF_OPEN must have
     * happened in at least 1% of the sequences.
     */
    private void assertCovered() {
        for (String event : List.of("CLOSED->OPEN", "OPEN->HALF_OPEN", "HALF_OPEN->OPEN", "HALF_OPEN->CLOSED",
                "rejected in HALF_OPEN", "late outcome recorded in HALF_OPEN")) {
            assertThat(this.coverage.getOrDefault(event, 0)).as("sequences that saw " + event + " in " + this.coverage)
                .isGreaterThan(SEQUENCES / 100);
        }
    }

    private void agreesWithTheModel(BreakerCase sequence) {
        VirtualTimeSource clock = new VirtualTimeSource(ORIGIN);
        CircuitBreaker breaker = CircuitBreaker.of("inventory", sequence.config(), clock);
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
        int inFlight = 0;
        for (int i = 0; i < sequence.steps().size(); i++) {
            BreakerStep step = sequence.steps().get(i);
            String where = "step " + (i + 1) + " (" + step + ")";
            CircuitBreakerState before = model.observe().state();
            switch (step.kind()) {
                case CALL, START -> {
                    boolean permitted = breaker.tryAcquirePermission();
                    assertThat(permitted).as(where + ": permitted").isEqualTo(model.acquire());
                    if (!permitted && model.observe().state() == CircuitBreakerState.HALF_OPEN) {
                        seen.add("rejected in HALF_OPEN");
                    }
                    if (permitted && step.kind() == BreakerStep.Kind.CALL) {
                        end(breaker, step);
                        model.end(step.ending(), step.nanos());
                    }
                    else if (permitted) {
                        inFlight++;
                    }
                }
                case FINISH -> {
                    if (inFlight > 0) {
                        inFlight--;
                        if (before == CircuitBreakerState.HALF_OPEN && step.ending() != Ending.IGNORED_ERROR) {
                            seen.add("late outcome recorded in HALF_OPEN");
                        }
                        end(breaker, step);
                        model.end(step.ending(), step.nanos());
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
            if (sequence.observeAfterAdvances() || step.kind() != BreakerStep.Kind.ADVANCE) {
                assertThat(observe(breaker)).as(where + ": metrics").isEqualTo(model.observe());
            }
        }
        assertThat(observe(breaker)).as("metrics at the end").isEqualTo(model.observe());
        heard.forEach((transition) -> seen.add(transition.from() + "->" + transition.to()));
        seen.stream().distinct().forEach((event) -> this.coverage.merge(event, 1, Integer::sum));
    }

    private static void end(CircuitBreaker breaker, BreakerStep step) {
        switch (step.ending()) {
            case SUCCESS -> breaker.onSuccess(step.nanos());
            case FAILURE -> breaker.onError(step.nanos(), new IOException("connection reset"));
            case IGNORED_ERROR -> breaker.onError(step.nanos(), new IllegalStateException("not for the breaker"));
        }
    }

    private static Observation observe(CircuitBreaker breaker) {
        CircuitBreakerMetrics metrics = breaker.metrics();
        return new Observation(metrics.state(), metrics.bufferedCalls(), metrics.failedCalls(), metrics.slowCalls(),
                metrics.failureRate(), metrics.slowCallRate(), metrics.successfulCallsTotal(),
                metrics.failedCallsTotal(), metrics.slowCallsTotal(), metrics.ignoredCallsTotal(),
                metrics.notPermittedCallsTotal());
    }

    /**
     * A configuration and the steps to run on it.
     *
     * @param config the breaker's settings; {@link IllegalStateException} is ignored
     * @param observeAfterAdvances whether metrics are also read after the clock moves, which
     * makes a time window evict its old seconds early
     * @param steps what happens, in order
     */
    record BreakerCase(CircuitBreakerConfig config, boolean observeAfterAdvances, List<BreakerStep> steps) {

        static BreakerCase generate(Random random, SlidingWindowType type) {
            CircuitBreakerConfig config = config(random, type);
            List<BreakerStep> steps = new ArrayList<>();
            int length = 1 + random.nextInt(MAX_STEPS);
            for (int i = 0; i < length; i++) {
                steps.add(step(random, config));
            }
            return new BreakerCase(config, random.nextInt(4) != 0, List.copyOf(steps));
        }

        BreakerCase withSteps(List<BreakerStep> fewer) {
            return new BreakerCase(this.config, this.observeAfterAdvances, fewer);
        }

        private static CircuitBreakerConfig config(Random random, SlidingWindowType type) {
            int size = (type == SlidingWindowType.COUNT) ? 1 + random.nextInt(20) : 1 + random.nextInt(10);
            return CircuitBreakerConfig.builder()
                .slidingWindowType(type)
                .slidingWindowSize(size)
                .minimumCalls(1 + random.nextInt(25))
                .failureRateThreshold(THRESHOLDS[random.nextInt(THRESHOLDS.length)])
                .slowCallRateThreshold(THRESHOLDS[random.nextInt(THRESHOLDS.length)])
                .slowCallDuration(Duration.ofMillis(1 + random.nextInt(2000)))
                .waitInOpen(Duration.ofMillis(1 + random.nextInt(5000)))
                .halfOpenCalls(1 + random.nextInt(5))
                .ignoreOn(List.of(IllegalStateException.class))
                .build();
        }

        private static BreakerStep step(Random random, CircuitBreakerConfig config) {
            int roll = random.nextInt(100);
            if (roll < 55) {
                return BreakerStep.call(ending(random), duration(random, config));
            }
            if (roll < 63) {
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
         * Up to 3 seconds in milliseconds, often a few milliseconds, whole seconds, exactly the
         * wait in open or a nanosecond short of it, or past the window of a time window.
         */
        private static long advance(Random random, CircuitBreakerConfig config) {
            int roll = random.nextInt(100);
            long wait = config.waitInOpen().toNanos();
            if (roll < 45) {
                return Duration.ofMillis(random.nextInt(3001)).toNanos();
            }
            if (roll < 55) {
                return Duration.ofMillis(random.nextInt(6)).toNanos();
            }
            if (roll < 70) {
                return wait;
            }
            if (roll < 75) {
                return wait - 1;
            }
            int size = config.slidingWindowSize();
            if (roll < 90) {
                return Duration.ofSeconds(random.nextInt(Math.min(size, 10) + 2)).toNanos();
            }
            return Duration.ofSeconds(Math.min(size, 10)).plusMillis(random.nextInt(2001)).toNanos();
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder(this.config.toString())
                .append(", metrics read after advances: ").append(this.observeAfterAdvances);
            for (int i = 0; i < this.steps.size(); i++) {
                text.append("\n  ").append(i + 1).append(". ").append(this.steps.get(i));
            }
            return text.toString();
        }
    }
}
