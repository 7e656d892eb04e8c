package dev.resilience.http;

import java.time.Duration;

import dev.resilience.core.time.VirtualTimeSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lets an asynchronous call through a wait of the engine's virtual clock, checking that
 * the wait is exactly as long as expected: nothing is sent a millisecond before it ends.
 */
final class VirtualWaits {

    private VirtualWaits() {
    }

    /**
     * Waits until the call is in its only wait, then moves the clock to its end. With an
     * attempt timeout, call it once the attempt's response has arrived, as the running
     * attempt's timer is a wait too.
     * @param clock the engine's clock
     * @param server the server the call sends to
     * @param wait the expected length of the wait
     */
    static void passWait(VirtualTimeSource clock, ScriptedHttpServer server, Duration wait) {
        await().atMost(Duration.ofSeconds(10)).until(() -> clock.pendingTasks() == 1);
        int sent = server.received().size();
        clock.advance(wait.minusMillis(1));
        assertThat(clock.pendingTasks()).as("still waiting a millisecond before %s", wait).isEqualTo(1);
        assertThat(server.received()).as("requests sent during the wait").hasSize(sent);
        clock.advance(Duration.ofMillis(1));
    }

}
