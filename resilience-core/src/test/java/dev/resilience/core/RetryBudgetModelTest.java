package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs random sequences of calls through a pipeline whose retries share a {@link RetryBudget}
 * of ratio {@code r} and no floor, and checks two things: whenever a retry is granted, the
 * retries in the window are at most {@code floor(r * calls in the window)}; and the budget
 * grants a retry exactly when that stays true, counting in whole seconds from the budget's
 * creation, a call or retry of second {@code s} being in the window until second
 * {@code s + window seconds} (the window rounded up to whole seconds).
 */
class RetryBudgetModelTest {

    private static final int SEQUENCES = 3_000;

    private static final int[] RATIO_PERCENTS = { 0, 10, 25, 50, 100, 200 };

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final Map<String, Integer> coverage = new TreeMap<>();

    @Test
    void budgetGrantsARetryExactlyWhileRetriesStayWithinTheRatioOfCallsInTheWindow() {
        PropertyCheck.forAll("retry budget agrees with the model", BudgetCase::generate)
            .shrinking((failing) -> PropertyCheck.withoutRuns(failing.calls()).map(failing::withCalls))
            .holds(SEQUENCES, this::agreesWithTheModel);

        for (String event : List.of("retry granted", "retry refused", "refused, then granted as calls came in",
                "granted, then refused")) {
            assertThat(this.coverage.getOrDefault(event, 0)).as("sequences with " + event + " in " + this.coverage)
                .isGreaterThan(SEQUENCES / 100);
        }
    }

    private void agreesWithTheModel(BudgetCase sequence) {
        VirtualTimeSource clock = new VirtualTimeSource();
        RetryBudget budget = new RetryBudget(sequence.ratioPercent() / 100.0, 0,
                Duration.ofMillis(sequence.windowMillis()), clock);
        RetryPolicy policy = RetryPolicy.builder()
            .maxAttempts(sequence.maxAttempts())
            .backoff(Backoff.of(Duration.ofMillis(sequence.delayMillis()), 1.0, Duration.ofMillis(sequence.delayMillis()),
                    Jitter.NONE))
            .budget(budget)
            .listener((retry) -> assertThat(budget.retriesInWindow())
                .as("retries in the window when one is granted")
                .isLessThanOrEqualTo(budget.callsInWindow() * sequence.ratioPercent() / 100))
            .build();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quotes").timeSource(clock).retry(policy).build();
        Model model = new Model(sequence);
        StringBuilder decisions = new StringBuilder();
        for (int i = 0; i < sequence.calls().size(); i++) {
            BudgetCall call = sequence.calls().get(i);
            clock.advance(Duration.ofMillis(call.pauseMillis()));
            int[] attempt = { 0 };
            ExecutionResult<String> result = pipeline.execute(() -> {
                RetryCall.Attempt script = call.attempts().get(attempt[0]++);
                clock.advance(Duration.ofMillis(script.millis()));
                if (script.ending() == RetryCall.Ending.SUCCESS) {
                    return "quoted";
                }
                throw new IOException("connection reset");
            });

            String where = "call " + (i + 1);
            String actual = result.status() + " after " + result.attempts() + " attempts"
                    + (result.metadata().containsKey(ExecutionResult.BUDGET_REFUSED) ? ", budget refused" : "");
            assertThat(actual).as(where).isEqualTo(model.call(call));
            decisions.append((result.attempts() > 1) ? "G" : "").append(actual.endsWith("refused") ? "R" : "");
            assertThat(budget.callsInWindow() + " calls, " + budget.retriesInWindow() + " retries in the window")
                .as(where).isEqualTo(model.window());
        }
        Map<String, Boolean> seen = Map.of("retry granted", decisions.indexOf("G") >= 0, "retry refused",
                decisions.indexOf("R") >= 0, "refused, then granted as calls came in", decisions.indexOf("RG") >= 0,
                "granted, then refused", decisions.indexOf("GR") >= 0);
        seen.forEach((event, happened) -> this.coverage.merge(event, happened ? 1 : 0, Integer::sum));
    }

    /** The budget on paper: every call and granted retry with the second it happened in. */
    private static final class Model {

        private final BudgetCase sequence;

        private final long windowSeconds;

        private final List<Long> calls = new ArrayList<>();

        private final List<Long> retries = new ArrayList<>();

        private long now;

        Model(BudgetCase sequence) {
            this.sequence = sequence;
            this.windowSeconds = (sequence.windowMillis() + 999) / 1000;
        }

        String call(BudgetCall call) {
            this.now += millis(call.pauseMillis());
            this.calls.add(second());
            for (int attempt = 1;; attempt++) {
                RetryCall.Attempt script = call.attempts().get(attempt - 1);
                this.now += millis(script.millis());
                if (script.ending() == RetryCall.Ending.SUCCESS) {
                    return "SUCCESS after " + attempt + " attempts";
                }
                if (attempt == this.sequence.maxAttempts()) {
                    return "ERROR after " + attempt + " attempts";
                }
                if (inWindow(this.retries) + 1 > inWindow(this.calls) * this.sequence.ratioPercent() / 100) {
                    return "ERROR after " + attempt + " attempts, budget refused";
                }
                this.retries.add(second());
                this.now += millis(this.sequence.delayMillis());
            }
        }

        String window() {
            return inWindow(this.calls) + " calls, " + inWindow(this.retries) + " retries in the window";
        }

        private long inWindow(List<Long> seconds) {
            long current = second();
            return seconds.stream().filter((second) -> second > current - this.windowSeconds).count();
        }

        private long second() {
            return Math.floorDiv(this.now, NANOS_PER_SECOND);
        }

        private static long millis(long millis) {
            return Duration.ofMillis(millis).toNanos();
        }
    }

    /**
     * One call of a sequence.
     *
     * @param pauseMillis how long the clock moves before it
     * @param attempts how each possible attempt ends and how long it takes
     */
    record BudgetCall(long pauseMillis, List<RetryCall.Attempt> attempts) {

        @Override
        public String toString() {
            return "after " + this.pauseMillis + "ms: " + this.attempts;
        }
    }

    /**
     * A budget, a retry policy sharing it, and the calls to run.
     *
     * @param ratioPercent the budget's ratio of retries to calls, in percent
     * @param windowMillis the budget's window
     * @param maxAttempts the attempts each call may make
     * @param delayMillis the fixed wait before each retry
     * @param calls the calls, in order
     */
    record BudgetCase(int ratioPercent, long windowMillis, int maxAttempts, long delayMillis, List<BudgetCall> calls) {

        static BudgetCase generate(Random random) {
            int ratioPercent = RATIO_PERCENTS[random.nextInt(RATIO_PERCENTS.length)];
            long windowMillis = random.nextBoolean() ? 1000L * (1 + random.nextInt(10)) : 1000 + random.nextInt(9001);
            int maxAttempts = 2 + random.nextInt(3);
            long delayMillis = random.nextInt(1501);
            List<BudgetCall> calls = new ArrayList<>();
            int count = 1 + random.nextInt(40);
            for (int i = 0; i < count; i++) {
                int roll = random.nextInt(10);
                long pause = (roll < 5) ? random.nextInt(501) : (roll < 8) ? random.nextInt(3001)
                        : (roll == 8) ? 0 : windowMillis + random.nextInt(2001);
                List<RetryCall.Attempt> attempts = new ArrayList<>();
                for (int attempt = 0; attempt < maxAttempts; attempt++) {
                    attempts.add(new RetryCall.Attempt((random.nextInt(4) == 0) ? RetryCall.Ending.SUCCESS
                            : RetryCall.Ending.RETRYABLE_ERROR, random.nextInt(401)));
                }
                calls.add(new BudgetCall(pause, List.copyOf(attempts)));
            }
            return new BudgetCase(ratioPercent, windowMillis, maxAttempts, delayMillis, List.copyOf(calls));
        }

        BudgetCase withCalls(List<BudgetCall> fewer) {
            return new BudgetCase(this.ratioPercent, this.windowMillis, this.maxAttempts, this.delayMillis, fewer);
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder("ratio " + this.ratioPercent + "%, window " + this.windowMillis
                    + "ms, " + this.maxAttempts + " attempts, " + this.delayMillis + "ms between them");
            for (int i = 0; i < this.calls.size(); i++) {
                text.append("\n  ").append(i + 1).append(". ").append(this.calls.get(i));
            }
            return text.toString();
        }
    }
}
