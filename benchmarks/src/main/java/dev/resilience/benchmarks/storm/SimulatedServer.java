package dev.resilience.benchmarks.storm;

import java.util.concurrent.CompletableFuture;

import dev.resilience.core.time.TimeSource;

/**
 * A server of fixed capacity per second of virtual time, which answers every request at
 * once: it fails while it is down, fails fast once it has served its capacity in the
 * current second, and otherwise succeeds. It counts every request it receives (its load)
 * and every one it serves, per second. Not thread-safe: the simulation runs on one
 * thread.
 */
final class SimulatedServer {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private static final Object RESPONSE = "ok";

    private static final RuntimeException DOWN = new UnavailableException("server down");

    private static final RuntimeException OVERLOADED = new UnavailableException("server over capacity");

    private final StormScenario scenario;

    private final TimeSource clock;

    private final long[] load;

    private final long[] served;

    SimulatedServer(StormScenario scenario, TimeSource clock, int seconds) {
        this.scenario = scenario;
        this.clock = clock;
        this.load = new long[seconds];
        this.served = new long[seconds];
    }

    CompletableFuture<Object> handle() {
        int second = (int) (this.clock.nanoTime() / NANOS_PER_SECOND);
        this.load[second]++;
        if (this.scenario.isDown(second)) {
            return CompletableFuture.failedFuture(DOWN);
        }
        if (this.served[second] >= this.scenario.capacity()) {
            return CompletableFuture.failedFuture(OVERLOADED);
        }
        this.served[second]++;
        return CompletableFuture.completedFuture(RESPONSE);
    }

    long[] load() {
        return this.load.clone();
    }

    long[] served() {
        return this.served.clone();
    }

    /**
     * The server's refusal, shared by every request: no stack trace, no suppressed
     * errors.
     */
    private static final class UnavailableException extends RuntimeException {

        UnavailableException(String message) {
            super(message, null, false, false);
        }

    }

}
