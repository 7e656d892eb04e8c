package dev.resilience.benchmarks.bulkhead;

import java.util.Locale;
import java.util.random.RandomGenerator;

/**
 * How the downstream's time for each request is spread around its mean.
 */
public enum ServiceTimes {

    /**
     * Drawn from an exponential distribution, the textbook model of a server's time: its
     * standard deviation is its mean, one request in seven takes more than twice the
     * mean, and its 99th percentile is 4.6 times the mean.
     */
    EXPONENTIAL,

    /** Every request takes the mean exactly. */
    CONSTANT;

    /**
     * Returns the service times named on a command line.
     * @param name {@code exponential} or {@code constant}, in any case
     * @return the service times
     * @throws IllegalArgumentException for another name
     */
    public static ServiceTimes named(String name) {
        for (ServiceTimes times : values()) {
            if (times.id().equalsIgnoreCase(name)) {
                return times;
            }
        }
        throw new IllegalArgumentException("service-times must be exponential or constant, was '" + name + "'");
    }

    /**
     * Returns the name of these service times on a command line.
     * @return a lower-case name
     */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Draws the time of one request.
     * @param meanNanos the mean, in nanoseconds
     * @param random the seeded generator, used by exponential times only
     * @return the time, in nanoseconds
     */
    long draw(double meanNanos, RandomGenerator random) {
        return switch (this) {
            case EXPONENTIAL -> Math.round(-meanNanos * Math.log(1 - random.nextDouble()));
            case CONSTANT -> Math.round(meanNanos);
        };
    }

}
