package dev.resilience.core.circuitbreaker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TimeSlidingWindowTests {

    private static final Thresholds NEVER = new Thresholds(1, 100, 100);

    private final VirtualTimeSource clock = new VirtualTimeSource();

    @Test
    void bucketsExpireSecondBySecondAsTheClockMoves() {
        TimeSlidingWindow window = new TimeSlidingWindow(3, NEVER, this.clock);
        window.record(Outcome.SUCCESS);
        window.record(Outcome.SUCCESS);
        this.clock.advance(Duration.ofMillis(1500));
        window.record(Outcome.FAILURE);
        this.clock.advance(Duration.ofMillis(1400));
        window.record(Outcome.SLOW_SUCCESS);
        assertThat(window.snapshot()).isEqualTo(new WindowSnapshot(4, 1, 1, 25f, 25f));

        this.clock.advance(Duration.ofMillis(100));
        assertThat(window.snapshot()).isEqualTo(new WindowSnapshot(2, 1, 1, 50f, 50f));
        this.clock.advance(Duration.ofSeconds(1));
        assertThat(window.snapshot()).isEqualTo(new WindowSnapshot(1, 0, 1, 0f, 100f));
        this.clock.advance(Duration.ofMillis(999));
        assertThat(window.snapshot().calls()).isEqualTo(1);
        this.clock.advance(Duration.ofMillis(1));
        assertThat(window.snapshot()).isEqualTo(WindowSnapshot.EMPTY);
    }

    @Test
    void clockJumpOfTheWholeWindowClearsIt() {
        TimeSlidingWindow window = new TimeSlidingWindow(10, NEVER, this.clock);
        for (int second = 0; second < 10; second++) {
            window.record(Outcome.FAILURE);
            this.clock.advance(Duration.ofSeconds(1));
        }
        assertThat(window.snapshot().calls()).isEqualTo(9);

        this.clock.advance(Duration.ofHours(5));
        assertThat(window.snapshot()).isEqualTo(WindowSnapshot.EMPTY);
        window.record(Outcome.SUCCESS);
        assertThat(window.snapshot()).isEqualTo(new WindowSnapshot(1, 0, 0, 0f, 0f));
    }

    @Test
    void jumpOfExactlyTheWindowSizeClearsIt() {
        TimeSlidingWindow window = new TimeSlidingWindow(4, NEVER, this.clock);
        window.record(Outcome.FAILURE);
        this.clock.advance(Duration.ofSeconds(3));
        window.record(Outcome.FAILURE);
        this.clock.advance(Duration.ofSeconds(4));
        assertThat(window.snapshot()).isEqualTo(WindowSnapshot.EMPTY);
    }

    @Test
    void windowOfOneSecondHoldsOnlyTheCurrentSecond() {
        TimeSlidingWindow window = new TimeSlidingWindow(1, NEVER, this.clock);
        window.record(Outcome.FAILURE);
        this.clock.advance(Duration.ofMillis(999));
        window.record(Outcome.SUCCESS);
        assertThat(window.snapshot().calls()).isEqualTo(2);
        this.clock.advance(Duration.ofMillis(1));
        window.record(Outcome.SUCCESS);
        assertThat(window.snapshot()).isEqualTo(new WindowSnapshot(1, 0, 0, 0f, 0f));
    }

    @Test
    void countsMatchTheCallsOfTheLastSecondsThroughManyWrapArounds() {
        int size = 5;
        Thresholds thresholds = new Thresholds(3, 40, 60);
        TimeSlidingWindow window = new TimeSlidingWindow(size, thresholds, this.clock);
        List<long[]> recorded = new ArrayList<>();
        Outcome[] recordable = { Outcome.SUCCESS, Outcome.SLOW_SUCCESS, Outcome.FAILURE, Outcome.SLOW_FAILURE };
        Random random = new Random(42);
        for (int i = 0; i < 5_000; i++) {
            this.clock.advance(Duration.ofMillis(random.nextInt((i % 100 == 0) ? 8_000 : 700)));
            Outcome outcome = recordable[random.nextInt(recordable.length)];
            long second = this.clock.elapsed().toSeconds();
            recorded.add(new long[] { second, outcome.failed ? 1 : 0, outcome.slow ? 1 : 0 });
            long calls = 0;
            long failed = 0;
            long slow = 0;
            for (long[] call : recorded) {
                if (call[0] > second - size) {
                    calls++;
                    failed += call[1];
                    slow += call[2];
                }
            }

            boolean reached = window.record(outcome);

            assertThat(window.snapshot()).isEqualTo(thresholds.snapshot(calls, failed, slow));
            assertThat(reached).isEqualTo(thresholds.reached(calls, failed, slow));
        }
    }

}
