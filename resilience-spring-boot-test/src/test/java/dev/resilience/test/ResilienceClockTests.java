package dev.resilience.test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link ResilienceClock#await}: a step running on another thread ends before the clock
 * moves past its timers, and a call that never ends fails the test with a message.
 */
class ResilienceClockTests {

    private final VirtualTimeSource time = new VirtualTimeSource();

    private final ResilienceClock clock = new ResilienceClock(this.time);

    @Test
    void awaitLetsAStepOnAnotherThreadEndBeforeItsAttemptTimeoutFires() throws InterruptedException {
        CompletableFuture<String> call = new CompletableFuture<>();
        this.time.schedule(() -> call.completeExceptionally(new TimeoutException("attempt timeout")),
                Duration.ofSeconds(10));
        Thread awaiting = Thread.currentThread();
        Thread worker = new Thread(() -> {
            // The attempt's work ends once the awaiting thread waits for it
            while (!call.isDone() && awaiting.getState() != Thread.State.TIMED_WAITING) {
                Thread.onSpinWait();
            }
            call.complete("done");
        });
        worker.start();
        try {
            assertThat(this.clock.await(call)).isEqualTo("done");
            assertThat(this.clock.elapsed()).isZero();
            assertThat(this.time.pendingTasks()).isOne();
        }
        finally {
            worker.join();
        }
    }

    @Test
    void awaitMovesToTheNextTimerWhenNoStepEndsTheCallMeanwhile() {
        CompletableFuture<String> call = new CompletableFuture<>();
        this.time.schedule(() -> call.complete("backed off"), Duration.ofMinutes(3));
        assertThat(this.clock.await(call)).isEqualTo("backed off");
        assertThat(this.clock.elapsed()).isEqualTo(Duration.ofMinutes(3));
    }

    @Test
    void awaitOnACallThatNeverEndsFailsWithWhereTheClockStands() {
        CompletableFuture<String> call = new CompletableFuture<>();
        this.time.schedule(() -> {
        }, Duration.ofSeconds(5));
        assertThatIllegalStateException().isThrownBy(() -> this.clock.await(call, Duration.ofMillis(300)))
            .withMessage("The call did not complete within PT0.3S of wall time; the virtual clock stands at PT5S"
                    + " with 0 timer(s) pending");
    }

}
