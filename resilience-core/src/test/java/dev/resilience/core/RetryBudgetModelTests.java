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
import dev.resilience.core.retry.RetryEvent;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs random sequences of calls through a pipeline whose retries share a
 * {@link RetryBudget} of ratio {@code r} and floor {@code f}, and checks two things:
 * whenever a retry is granted, the retries in the window are at most
 * {@code max(floor(r * calls in the window),
 * f * window seconds)}; and the budget grants a retry exactly when both of its rules
 * allow it, as written here on paper. The window counts in whole seconds from the
 * budget's creation, a call or retry of second {@code s} being in the window until second
 * {@code s + window seconds} (the window rounded up to whole seconds). The bucket,
 * counted in millionths of a token, holds {@code max(1, f) + r} tokens and starts with
 * {@code f}; each call adds {@code r}, the floor adds {@code f * t / 1000} millionths by
 * {@code t} nanoseconds after the creation, and a granted retry takes one token.
 */
class RetryBudgetModelTests {

    private static final int SEQUENCES = 3_000;

    private static final int[] RATIO_PERCENTS = { 0, 10, 25, 50, 100, 200 };

    private static final int[] FLOORS = { 0, 0, 1, 2, 5 };

    private static final long TOKEN = 1_000_000L;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final Map<String, Integer> coverage = new TreeMap<>();

    @Test
    void budgetGrantsARetryExactlyWhenTheWindowAndTheBucketBothAllowIt() {
        PropertyCheck.forAll("retry budget agrees with the model", BudgetCase::generate)
            .shrinking((failing) -> PropertyCheck.withoutRuns(failing.calls()).map(failing::withCalls))
            .holds(SEQUENCES, this::agreesWithTheModel);

        for (String event : List.of("retry granted", "retry refused", "refused, then granted as calls came in",
                "granted, then refused", "refused by the window with a token in the bucket",
                "refused by the bucket with room in the window")) {
            assertThat(this.coverage.getOrDefault(event, 0)).as("sequences with " + event + " in " + this.coverage)
                .isGreaterThan(SEQUENCES / 100);
        }
    }

    private void agreesWithTheModel(BudgetCase sequence) {
        VirtualTimeSource clock = new VirtualTimeSource();
        RetryBudget budget = new RetryBudget(sequence.ratioPercent() / 100.0, sequence.floor(),
                Duration.ofMillis(sequence.windowMillis()), clock);
        long floorInWindow = (long) sequence.floor() * ((sequence.windowMillis() + 999) / 1000);
        RetryPolicy policy = RetryPolicy.builder()
            .maxAttempts(sequence.maxAttempts())
            .backoff(Backoff.of(Duration.ofMillis(sequence.delayMillis()), 1.0,
                    Duration.ofMillis(sequence.delayMillis()), Jitter.NONE))
            .budget(budget)
            .build();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quotes")
            .timeSource(clock)
            .retry(policy)
            .listener(new ExecutionListener() {
                @Override
                public void onRetry(String name, RetryEvent retry) {
                    assertThat(budget.retriesInWindow()).as("retries in the window when one is granted")
                        .isLessThanOrEqualTo(
                                Math.max(budget.callsInWindow() * sequence.ratioPercent() / 100, floorInWindow));
                }
            })
            .build();
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
                .as(where)
                .isEqualTo(model.window());
        }
        Map<String, Boolean> seen = Map.of("retry granted", decisions.indexOf("G") >= 0, "retry refused",
                decisions.indexOf("R") >= 0, "refused, then granted as calls came in", decisions.indexOf("RG") >= 0,
                "granted, then refused", decisions.indexOf("GR") >= 0,
                "refused by the window with a token in the bucket", model.refusedByTheWindow,
                "refused by the bucket with room in the window", model.refusedByTheBucket);
        seen.forEach((event, happened) -> this.coverage.merge(event, happened ? 1 : 0, Integer::sum));
    }

    /**
     * The budget on paper: every call and granted retry with the second it happened in,
     * and the tokens.
     */
    private static final class Model {

        private final BudgetCase sequence;

        private final long windowSeconds;

        private final long capacity;

        private final List<Long> calls = new ArrayList<>();

        private final List<Long> retries = new ArrayList<>();

        private long now;

        private long tokens;

        private long refilledAt;

        private boolean refusedByTheWindow;

        private boolean refusedByTheBucket;

        Model(BudgetCase sequence) {
            this.sequence = sequence;
            this.windowSeconds = (sequence.windowMillis() + 999) / 1000;
            this.capacity = Math.max(1, sequence.floor()) * TOKEN + ratioMillionths();
            this.tokens = sequence.floor() * TOKEN;
        }

        String call(BudgetCall call) {
            this.now += millis(call.pauseMillis());
            this.calls.add(second());
            this.tokens = Math.min(this.capacity, this.tokens + ratioMillionths());
            for (int attempt = 1;; attempt++) {
                RetryCall.Attempt script = call.attempts().get(attempt - 1);
                this.now += millis(script.millis());
                if (script.ending() == RetryCall.Ending.SUCCESS) {
                    return "SUCCESS after " + attempt + " attempts";
                }
                if (attempt == this.sequence.maxAttempts()) {
                    return "ERROR after " + attempt + " attempts";
                }
                this.tokens = Math.min(this.capacity,
                        this.tokens + floorEarned(this.now) - floorEarned(this.refilledAt));
                this.refilledAt = this.now;
                boolean windowAllows = inWindow(this.retries) + 1 <= Math.max(
                        inWindow(this.calls) * this.sequence.ratioPercent() / 100,
                        this.sequence.floor() * this.windowSeconds);
                boolean bucketAllows = this.tokens >= TOKEN;
                if (!windowAllows || !bucketAllows) {
                    this.refusedByTheWindow |= !windowAllows && bucketAllows;
                    this.refusedByTheBucket |= windowAllows && !bucketAllows;
                    return "ERROR after " + attempt + " attempts, budget refused";
                }
                this.tokens -= TOKEN;
                this.retries.add(second());
                this.now += millis(this.sequence.delayMillis());
            }
        }

        String window() {
            return inWindow(this.calls) + " calls, " + inWindow(this.retries) + " retries in the window";
        }

        private long ratioMillionths() {
            return this.sequence.ratioPercent() * (TOKEN / 100);
        }

        private long floorEarned(long nanos) {
            return this.sequence.floor() * nanos / 1000;
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
     * @param floor the budget's retries per second allowed without calls
     * @param windowMillis the budget's window
     * @param maxAttempts the attempts each call may make
     * @param delayMillis the fixed wait before each retry
     * @param calls the calls, in order
     */
    record BudgetCase(int ratioPercent, int floor, long windowMillis, int maxAttempts, long delayMillis,
            List<BudgetCall> calls) {

        static BudgetCase generate(Random random) {
            int ratioPercent = RATIO_PERCENTS[random.nextInt(RATIO_PERCENTS.length)];
            int floor = FLOORS[random.nextInt(FLOORS.length)];
            long windowMillis = random.nextBoolean() ? 1000L * (1 + random.nextInt(10)) : 1000 + random.nextInt(9001);
            int maxAttempts = 2 + random.nextInt(3);
            long delayMillis = random.nextInt(1501);
            List<BudgetCall> calls = new ArrayList<>();
            int count = 1 + random.nextInt(40);
            for (int i = 0; i < count; i++) {
                int roll = random.nextInt(10);
                long pause = (roll < 5) ? random.nextInt(501)
                        : (roll < 8) ? random.nextInt(3001) : (roll == 8) ? 0 : windowMillis + random.nextInt(2001);
                List<RetryCall.Attempt> attempts = new ArrayList<>();
                for (int attempt = 0; attempt < maxAttempts; attempt++) {
                    attempts.add(new RetryCall.Attempt(
                            (random.nextInt(4) == 0) ? RetryCall.Ending.SUCCESS : RetryCall.Ending.RETRYABLE_ERROR,
                            random.nextInt(401)));
                }
                calls.add(new BudgetCall(pause, List.copyOf(attempts)));
            }
            return new BudgetCase(ratioPercent, floor, windowMillis, maxAttempts, delayMillis, List.copyOf(calls));
        }

        BudgetCase withCalls(List<BudgetCall> fewer) {
            return new BudgetCase(this.ratioPercent, this.floor, this.windowMillis, this.maxAttempts, this.delayMillis,
                    fewer);
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder(
                    "ratio " + this.ratioPercent + "%, floor " + this.floor + "/s, window " + this.windowMillis + "ms, "
                            + this.maxAttempts + " attempts, " + this.delayMillis + "ms between them");
            for (int i = 0; i < this.calls.size(); i++) {
                text.append("\n  ").append(i + 1).append(". ").append(this.calls.get(i));
            }
            return text.toString();
        }
    }

}
