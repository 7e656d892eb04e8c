package dev.resilience.core.circuitbreaker;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class CountSlidingWindowTests {

    private static final Thresholds NEVER = new Thresholds(1, 100, 100);

    @Test
    void windowOfOneHoldsOnlyTheLastOutcome() {
        CountSlidingWindow window = new CountSlidingWindow(1, NEVER);
        window.record(Outcome.SLOW_FAILURE);
        assertThat(window.snapshot()).isEqualTo(new WindowSnapshot(1, 1, 1, 100f, 100f));
        window.record(Outcome.SUCCESS);
        assertThat(window.snapshot()).isEqualTo(new WindowSnapshot(1, 0, 0, 0f, 0f));
        window.record(Outcome.SLOW_SUCCESS);
        assertThat(window.snapshot()).isEqualTo(new WindowSnapshot(1, 0, 1, 0f, 100f));
    }

    @Test
    void emptyWindowHasNoRates() {
        assertThat(new CountSlidingWindow(5, NEVER).snapshot()).isEqualTo(WindowSnapshot.EMPTY);
    }

    @ParameterizedTest
    @ValueSource(ints = { 1, 2, 7, 100 })
    void countsMatchTheLastOutcomesThroughManyWrapArounds(int size) {
        Thresholds thresholds = new Thresholds(Math.min(3, size), 40, 60);
        CountSlidingWindow window = new CountSlidingWindow(size, thresholds);
        Deque<Outcome> lastOutcomes = new ArrayDeque<>();
        Random random = new Random(size);
        Outcome[] recordable = { Outcome.SUCCESS, Outcome.SLOW_SUCCESS, Outcome.FAILURE, Outcome.SLOW_FAILURE };
        for (int i = 0; i < size * 50 + 13; i++) {
            Outcome outcome = recordable[random.nextInt(recordable.length)];
            lastOutcomes.addLast(outcome);
            if (lastOutcomes.size() > size) {
                lastOutcomes.removeFirst();
            }
            int failed = (int) lastOutcomes.stream().filter((o) -> o.failed).count();
            int slow = (int) lastOutcomes.stream().filter((o) -> o.slow).count();

            boolean reached = window.record(outcome);

            assertThat(window.snapshot()).isEqualTo(thresholds.snapshot(lastOutcomes.size(), failed, slow));
            assertThat(reached).isEqualTo(thresholds.reached(lastOutcomes.size(), failed, slow));
        }
    }

    @Test
    void reportsThresholdReachedAtExactlyTheThresholdWithMinimumCalls() {
        CountSlidingWindow window = new CountSlidingWindow(10, new Thresholds(4, 50, 100));
        assertThat(window.record(Outcome.FAILURE)).isFalse();
        assertThat(window.record(Outcome.FAILURE)).isFalse();
        assertThat(window.record(Outcome.SUCCESS)).isFalse();
        assertThat(window.record(Outcome.SUCCESS)).isTrue();
    }

    @Test
    void largestWindowCountsEveryCall() {
        int size = CircuitBreakerConfig.MAX_COUNT_WINDOW_SIZE;
        CountSlidingWindow window = new CountSlidingWindow(size, NEVER);
        for (int i = 0; i < size + 10; i++) {
            window.record((i % 2 == 0) ? Outcome.SLOW_FAILURE : Outcome.SUCCESS);
        }
        assertThat(window.snapshot()).isEqualTo(new WindowSnapshot(size, size / 2, size / 2, 50f, 50f));
    }

}
