package dev.resilience.benchmarks.bulkhead;

import java.time.Duration;
import java.util.Objects;

import dev.resilience.benchmarks.simulator.SimulatorOptions;
import dev.resilience.core.bulkhead.BulkheadConfig;

/**
 * The settings of one simulated scenario: the calls' arrival rate, the downstream's
 * workers and service time, when and how much it slows down, how long calls arrive, the
 * fixed bulkhead's limit and AIMD's threshold, and how the service times are seeded.
 *
 * @param rate calls per second, arriving one after another at equal intervals, whether or
 * not earlier calls have ended
 * @param workers how many requests the downstream serves at once; the others wait in its
 * queue, first come first served
 * @param serviceTimeMillis the mean time a worker takes for a request, in milliseconds
 * @param serviceTimes how each request's time is spread around the mean
 * @param slowdownFactor how many times longer the mean service time is during the
 * slowdown
 * @param slowdownStart the second from which the requests a worker starts are slow
 * @param slowdownEnd the second from which they are fast again
 * @param duration the second the calls stop arriving; the calls started before run to
 * their end
 * @param fixedLimit the limit of the fixed bulkhead
 * @param headroomLimit the limit of the fixed bulkhead set with room for bursts
 * @param aimdThresholdMillis the latency, in milliseconds, from which the AIMD bulkhead
 * counts a call as overloaded
 * @param seed the seed of the service times' random generator
 */
public record BulkheadScenario(int rate, int workers, int serviceTimeMillis, ServiceTimes serviceTimes,
        int slowdownFactor, int slowdownStart, int slowdownEnd, int duration, int fixedLimit, int headroomLimit,
        long aimdThresholdMillis, long seed) {

    private static final long NANOS_PER_MILLI = 1_000_000L;

    /**
     * Checks the settings.
     * @throws IllegalArgumentException naming the setting that is out of range
     */
    public BulkheadScenario {
        require(rate > 0 && rate <= 1_000_000, "rate must be between 1 and 1,000,000 calls per second");
        require(workers > 0, "workers must be positive");
        require(serviceTimeMillis > 0, "service-time must be positive");
        Objects.requireNonNull(serviceTimes, "serviceTimes");
        require(slowdownFactor > 0, "slowdown-factor must be positive");
        require(0 <= slowdownStart && slowdownStart < slowdownEnd && slowdownEnd < duration,
                "the slowdown must satisfy 0 <= slowdown-start < slowdown-end < duration");
        require(fixedLimit >= BulkheadConfig.LOWEST_LIMIT && fixedLimit <= BulkheadConfig.HIGHEST_LIMIT,
                "fixed-limit must be between " + BulkheadConfig.LOWEST_LIMIT + " and " + BulkheadConfig.HIGHEST_LIMIT);
        require(headroomLimit >= BulkheadConfig.LOWEST_LIMIT && headroomLimit <= BulkheadConfig.HIGHEST_LIMIT,
                "headroom-limit must be between " + BulkheadConfig.LOWEST_LIMIT + " and "
                        + BulkheadConfig.HIGHEST_LIMIT);
        require(aimdThresholdMillis > 0, "aimd-threshold must be positive");
    }

    /**
     * Returns the default scenario: 200 calls/s to 16 workers of 40 ms each on average,
     * exponentially spread (half their capacity of 400 requests/s), ten times slower from
     * 60 s to 120 s (40 requests/s), 180 s in all, fixed limits of 25 and, with room for
     * bursts, 100 (half a second of calls, six times the downstream's workers), AIMD's
     * default threshold of 1 s, seed 42.
     * @return the default scenario
     */
    public static BulkheadScenario defaults() {
        return new BulkheadScenario(200, 16, 40, ServiceTimes.EXPONENTIAL, 10, 60, 120, 180,
                BulkheadConfig.DEFAULT_MAX_CONCURRENT_CALLS, 100, BulkheadConfig.DEFAULT_LATENCY_THRESHOLD.toMillis(),
                42);
    }

    /**
     * Reads a scenario from {@code --name=value} options, each setting left out keeping
     * its default.
     * @param options {@code --rate}, {@code --workers}, {@code --service-time},
     * {@code --service-times} ({@code exponential} or {@code constant}),
     * {@code --slowdown-factor}, {@code --slowdown-start}, {@code --slowdown-end},
     * {@code --duration}, {@code --fixed-limit}, {@code --headroom-limit},
     * {@code --aimd-threshold} or {@code --seed}
     * @return the scenario
     * @throws IllegalArgumentException for a value out of range
     */
    public static BulkheadScenario parse(SimulatorOptions options) {
        BulkheadScenario defaults = defaults();
        return new BulkheadScenario(options.intValue("rate", defaults.rate()),
                options.intValue("workers", defaults.workers()),
                options.intValue("service-time", defaults.serviceTimeMillis()),
                ServiceTimes.named(options.text("service-times", defaults.serviceTimes().id())),
                options.intValue("slowdown-factor", defaults.slowdownFactor()),
                options.intValue("slowdown-start", defaults.slowdownStart()),
                options.intValue("slowdown-end", defaults.slowdownEnd()),
                options.intValue("duration", defaults.duration()),
                options.intValue("fixed-limit", defaults.fixedLimit()),
                options.intValue("headroom-limit", defaults.headroomLimit()),
                options.longValue("aimd-threshold", defaults.aimdThresholdMillis()),
                options.longValue("seed", defaults.seed()));
    }

    /**
     * Returns whether the downstream is slow during a second.
     * @param second a whole second of the simulation
     * @return {@code true} from {@link #slowdownStart()} until {@link #slowdownEnd()},
     * exclusive
     */
    public boolean isSlow(long second) {
        return second >= this.slowdownStart && second < this.slowdownEnd;
    }

    /**
     * Returns the mean service time of a request a worker starts during a second.
     * @param second a whole second of the simulation
     * @return the mean, in nanoseconds
     */
    public double meanServiceNanos(long second) {
        double mean = this.serviceTimeMillis * (double) NANOS_PER_MILLI;
        return isSlow(second) ? mean * this.slowdownFactor : mean;
    }

    /**
     * Returns the latency from which the AIMD bulkhead counts a call as overloaded.
     * @return the threshold
     */
    public Duration aimdThreshold() {
        return Duration.ofMillis(this.aimdThresholdMillis);
    }

    /**
     * Returns how many requests the downstream serves per second while it is fast.
     * @return the workers divided by the mean service time
     */
    public double capacity() {
        return this.workers * 1000.0 / this.serviceTimeMillis;
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

}
