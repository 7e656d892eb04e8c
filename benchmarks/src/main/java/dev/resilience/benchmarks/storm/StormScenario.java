package dev.resilience.benchmarks.storm;

import dev.resilience.benchmarks.simulator.SimulatorOptions;

/**
 * The settings of one simulated scenario: how many clients call, how much the server can
 * serve, when it is down, how long the simulation runs, and how the randomness is seeded.
 *
 * @param clients how many clients call, each once a second, their phases spread evenly
 * over the second
 * @param capacity how many requests the server serves in one second; those beyond it fail
 * fast
 * @param outageStart the second the server goes fully down
 * @param outageEnd the second the server is back
 * @param duration the second the clients stop starting calls; the calls started before
 * still run their retries to the end
 * @param maxAttempts the attempts of every call, the first included, for every strategy
 * @param seed the seed of the jitter's random generator
 */
public record StormScenario(int clients, int capacity, int outageStart, int outageEnd, int duration, int maxAttempts,
        long seed) {

    /**
     * Checks the settings.
     * @throws IllegalArgumentException naming the setting that is out of range
     */
    public StormScenario {
        require(clients > 0, "clients must be positive");
        require(capacity > 0, "capacity must be positive");
        require(0 <= outageStart && outageStart < outageEnd && outageEnd < duration,
                "the outage must satisfy 0 <= outage-start < outage-end < duration");
        require(maxAttempts > 0, "max-attempts must be positive");
    }

    /**
     * Returns the default scenario: 1,000 clients, 1,200 requests/s, down from 30 s to 60
     * s, 120 s in all, 5 attempts, seed 42.
     * @return the default scenario
     */
    public static StormScenario defaults() {
        return new StormScenario(1000, 1200, 30, 60, 120, 5, 42);
    }

    /**
     * Reads a scenario from {@code --name=value} options, each setting left out keeping
     * its default.
     * @param options {@code --clients}, {@code --capacity}, {@code --outage-start},
     * {@code --outage-end}, {@code --duration}, {@code --max-attempts} or {@code --seed}
     * @return the scenario
     * @throws IllegalArgumentException for a value out of range
     */
    public static StormScenario parse(SimulatorOptions options) {
        StormScenario defaults = defaults();
        return new StormScenario(options.intValue("clients", defaults.clients()),
                options.intValue("capacity", defaults.capacity()),
                options.intValue("outage-start", defaults.outageStart()),
                options.intValue("outage-end", defaults.outageEnd()), options.intValue("duration", defaults.duration()),
                options.intValue("max-attempts", defaults.maxAttempts()), options.longValue("seed", defaults.seed()));
    }

    /**
     * Returns whether the server is down during a second.
     * @param second a whole second of the simulation
     * @return {@code true} from {@link #outageStart()} until {@link #outageEnd()},
     * exclusive
     */
    public boolean isDown(long second) {
        return second >= this.outageStart && second < this.outageEnd;
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
