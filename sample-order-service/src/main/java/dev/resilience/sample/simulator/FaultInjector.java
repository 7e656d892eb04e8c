package dev.resilience.sample.simulator;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * The faults of every simulated downstream, and the count of the requests each received.
 * Each target draws its failures, and which new charges stay pending, from its own random
 * sequence, seeded from {@link SimulatorProperties#seed()}, so that a sequential run
 * fails the same calls every time. Thread-safe.
 */
@Component
public class FaultInjector {

    /** The names of the simulated downstreams. */
    public static final List<String> TARGETS = List.of("primary", "backup", "oracle");

    private final Map<String, Target> targets = new LinkedHashMap<>();

    /**
     * Creates the injector with no faults.
     * @param properties the simulator's settings
     */
    public FaultInjector(SimulatorProperties properties) {
        for (int i = 0; i < TARGETS.size(); i++) {
            this.targets.put(TARGETS.get(i), new Target(new Random(properties.seed() + i)));
        }
    }

    /**
     * Changes the behaviour of a downstream from its next request on.
     * @param target the downstream's name
     * @param faults its new faults
     * @throws IllegalArgumentException for an unknown target
     */
    public void set(String target, Faults faults) {
        target(target).faults.set(faults);
    }

    /**
     * Returns the current faults of every downstream.
     * @return the faults by downstream name
     */
    public Map<String, Faults> faults() {
        Map<String, Faults> faults = new LinkedHashMap<>();
        this.targets.forEach((name, target) -> faults.put(name, target.faults.get()));
        return faults;
    }

    /**
     * Returns how many requests each downstream received.
     * @return the request counts by downstream name
     */
    public Map<String, Long> requests() {
        Map<String, Long> requests = new LinkedHashMap<>();
        this.targets.forEach((name, target) -> requests.put(name, target.requests.get()));
        return requests;
    }

    /**
     * Counts a request and decides whether it fails.
     * @param target the downstream's name
     * @return {@code true} when the request must be answered with a failure and have no
     * effect
     */
    boolean fails(String target) {
        Target state = target(target);
        state.requests.incrementAndGet();
        Faults faults = state.faults.get();
        return faults.outage() || (faults.failureRate() > 0 && state.random.nextDouble() < faults.failureRate());
    }

    /**
     * Sleeps for the downstream's latency before it answers.
     * @param target the downstream's name
     */
    void delay(String target) {
        sleep(target(target).faults.get().latencyMs());
    }

    /**
     * Sleeps for the time a gateway takes to process a new charge, then decides whether
     * the charge is recorded pending.
     * @param target the gateway's name
     * @return how long the new charge stays pending, or {@code null} when it succeeds at
     * once
     */
    @Nullable Duration process(String target) {
        Target state = target(target);
        Faults faults = state.faults.get();
        sleep(faults.processingMs());
        boolean pending = faults.pendingRate() > 0 && state.random.nextDouble() < faults.pendingRate();
        return pending ? Duration.ofMillis(faults.settleMs()) : null;
    }

    private static void sleep(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private Target target(String name) {
        Target target = this.targets.get(name);
        if (target == null) {
            throw new IllegalArgumentException("Unknown target '" + name + "': one of " + TARGETS);
        }
        return target;
    }

    private static final class Target {

        private final AtomicReference<Faults> faults = new AtomicReference<>(Faults.NONE);

        private final AtomicLong requests = new AtomicLong();

        private final Random random;

        Target(Random random) {
            this.random = random;
        }

    }

}
