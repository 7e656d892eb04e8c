package dev.resilience.core.time;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VirtualTimeSourceTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    @Test
    void advanceToNextTaskMovesToTheEarliestTaskAndRunsEveryTaskDueThen() {
        List<String> ran = new ArrayList<>();
        this.clock.schedule(() -> ran.add("late"), Duration.ofMinutes(5));
        this.clock.schedule(() -> ran.add("early"), Duration.ofMinutes(1));
        this.clock.schedule(() -> ran.add("early too"), Duration.ofMinutes(1));

        assertThat(this.clock.advanceToNextTask()).isTrue();

        assertThat(ran).containsExactly("early", "early too");
        assertThat(this.clock.elapsed()).isEqualTo(Duration.ofMinutes(1));
        assertThat(this.clock.advanceToNextTask()).isTrue();
        assertThat(ran).containsExactly("early", "early too", "late");
        assertThat(this.clock.elapsed()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void advanceToNextTaskWithoutATaskLeavesTheTimeWhereItIs() {
        this.clock.advance(Duration.ofSeconds(3));

        assertThat(this.clock.advanceToNextTask()).isFalse();

        assertThat(this.clock.elapsed()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aTaskScheduledByATaskThatFallsDueAtOnceRunsInTheSameStep() {
        List<String> ran = new ArrayList<>();
        this.clock.schedule(() -> {
            ran.add("first");
            this.clock.schedule(() -> ran.add("second"), Duration.ZERO);
        }, Duration.ofSeconds(1));

        this.clock.advanceToNextTask();

        assertThat(ran).containsExactly("first", "second");
        assertThat(this.clock.pendingTasks()).isZero();
    }

}
