package dev.resilience.core.retry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.resilience.core.time.VirtualTimeSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A budget bounds every second, not only its window's average: an outage that starts
 * after steady calls, after a quiet period, or goes on past the window's boundaries never
 * gets much more than {@code ratio} of a second's calls plus the floor in any one second.
 * The window alone let a window's allowance through in one second (the retry-storm
 * simulator showed 1.96x normal load in such seconds).
 */
class RetryBudgetPeakTests {

    private static final int FLOOR = RetryBudget.DEFAULT_MIN_RETRIES_PER_SECOND;

    /** What a full bucket holds when a second starts: one second of the floor. */
    private static final int TOLERANCE = FLOOR;

    private final VirtualTimeSource time = new VirtualTimeSource();

    /**
     * 1,000 calls a second, each retried as often as the budget lets it once the
     * dependency is down: 20 s of steady calls, a 30 s outage (two window boundaries
     * inside it), 20 s with no calls at all, then 20 s more of outage.
     */
    @Test
    void noSecondOfAnOutageGrantsMoreThanTheRatioOfItsCallsPlusTheFloor() {
        RetryBudget budget = new RetryBudget(RetryBudget.DEFAULT_RATIO, FLOOR, RetryBudget.DEFAULT_WINDOW, this.time);
        Traffic traffic = new Traffic(budget, this.time, 90);
        traffic.run(20, 1, 0);
        traffic.run(30, 1, 4);
        traffic.run(20, 0, 0);
        traffic.run(20, 1, 4);

        for (int second : traffic.secondsWithRetriesAsked()) {
            long allowed = Math.round(RetryBudget.DEFAULT_RATIO * traffic.calls[second]) + FLOOR + TOLERANCE;
            assertThat(traffic.granted[second])
                .as("retries granted in second %d, with %d calls", second, traffic.calls[second])
                .isLessThanOrEqualTo(allowed);
        }
        assertThat(traffic.granted(20, 50)).as("retries granted during the first outage")
            .isLessThanOrEqualTo(Math.round(RetryBudget.DEFAULT_RATIO * traffic.calls(20, 50)));
        assertThat(traffic.granted[20]).as("retries granted in the first second of the outage").isGreaterThan(90);
        assertThat(traffic.granted[70]).as("retries granted in the first second after the quiet period")
            .isGreaterThan(90);
    }

    /**
     * Without calls, the floor's retries of a window do not come at once: after the
     * bucket's second of the floor, at most the floor in any span of one second.
     */
    @Test
    void floorIsSpreadThroughTheSecondRatherThanGrantedAWindowAtOnce() {
        RetryBudget budget = new RetryBudget(RetryBudget.DEFAULT_RATIO, FLOOR, RetryBudget.DEFAULT_WINDOW, this.time);
        List<Long> grantedAtMillis = new ArrayList<>();
        for (long millis = 0; millis < 5_000; millis++) {
            if (budget.tryAcquireRetry()) {
                grantedAtMillis.add(millis);
            }
            this.time.advance(Duration.ofMillis(1));
        }

        assertThat(grantedAtMillis).as("retries granted in 5 s without calls")
            .hasSizeLessThanOrEqualTo(TOLERANCE + 5 * FLOOR);
        for (long from = 0; from < 4_000; from++) {
            long start = from;
            long inSpan = grantedAtMillis.stream().filter((at) -> at >= start && at < start + 1_000).count();
            assertThat(inSpan).as("retries granted from %d ms for 1 s", from)
                .isLessThanOrEqualTo((from < 1_000) ? FLOOR + TOLERANCE : FLOOR);
        }
    }

    /**
     * Drives a budget one virtual millisecond at a time and counts, per second, the calls
     * recorded and the retries granted.
     */
    private static final class Traffic {

        private final RetryBudget budget;

        private final VirtualTimeSource time;

        private final long[] calls;

        private final long[] granted;

        private final boolean[] asked;

        private int second;

        Traffic(RetryBudget budget, VirtualTimeSource time, int seconds) {
            this.budget = budget;
            this.time = time;
            this.calls = new long[seconds];
            this.granted = new long[seconds];
            this.asked = new boolean[seconds];
        }

        /**
         * Runs whole seconds in which each millisecond brings some calls and asks for
         * some retries.
         */
        void run(int seconds, int callsPerMillisecond, int retriesAskedPerMillisecond) {
            for (int end = this.second + seconds; this.second < end; this.second++) {
                this.asked[this.second] = retriesAskedPerMillisecond > 0;
                for (int millis = 0; millis < 1_000; millis++) {
                    for (int call = 0; call < callsPerMillisecond; call++) {
                        this.budget.recordCall();
                        this.calls[this.second]++;
                    }
                    this.granted[this.second] += acquire(this.budget, retriesAskedPerMillisecond);
                    this.time.advance(Duration.ofMillis(1));
                }
            }
        }

        List<Integer> secondsWithRetriesAsked() {
            List<Integer> seconds = new ArrayList<>();
            for (int s = 0; s < this.second; s++) {
                if (this.asked[s]) {
                    seconds.add(s);
                }
            }
            return seconds;
        }

        long calls(int from, int to) {
            return Arrays.stream(this.calls, from, to).sum();
        }

        long granted(int from, int to) {
            return Arrays.stream(this.granted, from, to).sum();
        }

    }

    private static int acquire(RetryBudget budget, int attempts) {
        int granted = 0;
        for (int i = 0; i < attempts; i++) {
            if (budget.tryAcquireRetry()) {
                granted++;
            }
        }
        return granted;
    }

}
