package dev.resilience.benchmarks.storm;

import java.util.OptionalInt;

/**
 * What one strategy did to the server in one scenario, per second of the simulation, and
 * the figures the report draws from it.
 *
 * @param strategy the strategy the clients used
 * @param scenario the scenario
 * @param load the requests that reached the server in each second, retries included, past
 * the end of the scenario until the last retry
 * @param served the requests the server served in each second
 * @param calls the client calls started in each second of the scenario
 * @param totalCalls the calls started
 * @param succeededCalls the calls that ended in success, after their retries
 */
public record StormResult(RetryStrategy strategy, StormScenario scenario, long[] load, long[] served, long[] calls,
        long totalCalls, long succeededCalls) {

    /**
     * The share of a second's requests that must succeed for the server to count as
     * healthy.
     */
    static final double HEALTHY_SUCCESS_RATE = 0.99;

    /**
     * Returns how many requests reached the server per client call while it was down.
     * @return the requests received during the outage divided by the calls started in it
     */
    public double amplificationDuringOutage() {
        long requests = 0;
        long started = 0;
        for (int second = this.scenario.outageStart(); second < this.scenario.outageEnd(); second++) {
            requests += this.load[second];
            started += this.calls[second];
        }
        return (double) requests / started;
    }

    /**
     * Returns the highest load in one second while the server is down.
     * @return the requests received in the busiest second of the outage
     */
    public long peakDuringOutage() {
        return peak(this.scenario.outageStart(), this.scenario.outageEnd());
    }

    /**
     * Returns the load the server receives without retries: every client's one call a
     * second.
     * @return the requests per second of the clients' calls
     */
    public long normalLoad() {
        return this.scenario.clients();
    }

    /**
     * Returns the highest load in one second from the server's recovery to the end of the
     * scenario.
     * @return the requests received in the busiest second
     */
    public long peakAfterRecovery() {
        return peak(this.scenario.outageEnd(), this.scenario.duration());
    }

    /**
     * Returns how long after its recovery the server is healthy for good: the first
     * second after which every second until the end of the scenario stays within capacity
     * and serves at least 99% of its requests, counted from the recovery.
     * @return the seconds to drain, 0 when the server is healthy from its first second
     * back; empty when it is not healthy by the end of the scenario
     */
    public OptionalInt drainSeconds() {
        int healthyFrom = this.scenario.duration();
        while (healthyFrom > this.scenario.outageEnd() && isHealthy(healthyFrom - 1)) {
            healthyFrom--;
        }
        return (healthyFrom < this.scenario.duration()) ? OptionalInt.of(healthyFrom - this.scenario.outageEnd())
                : OptionalInt.empty();
    }

    /**
     * Returns the share of all calls that succeeded, after their retries.
     * @return the succeeded calls divided by the calls started, between 0 and 1
     */
    public double successShare() {
        return (double) this.succeededCalls / this.totalCalls;
    }

    private long peak(int from, int to) {
        long peak = 0;
        for (int second = from; second < to; second++) {
            peak = Math.max(peak, this.load[second]);
        }
        return peak;
    }

    private boolean isHealthy(int second) {
        long requests = this.load[second];
        return requests <= this.scenario.capacity() && this.served[second] >= HEALTHY_SUCCESS_RATE * requests;
    }
}
