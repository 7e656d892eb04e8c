package dev.resilience.core.bulkhead;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

import dev.resilience.core.time.VirtualTimeSource;

/**
 * Calls arriving at a fixed rate, whether or not earlier ones have ended, each through a
 * bulkhead that refuses at once when full to a downstream of a fixed number of workers
 * before one queue, first come first served. A worker's time for a request is drawn from
 * an exponential distribution (one request in seven takes more than twice the mean) by a
 * seeded generator, and the downstream fails a seeded share of requests, so a run is the
 * same every time. Everything happens on the virtual clock, on the thread that advances
 * it. A call hands its permit back with the time it held it, as the pipeline does.
 */
final class SimulatedDownstream {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final Bulkhead bulkhead;

    private final VirtualTimeSource clock;

    private final int workers;

    private final SplittableRandom random;

    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();

    private double meanServiceNanos;

    private double failureShare;

    private int busy;

    private Stretch current = new Stretch(0);

    SimulatedDownstream(Bulkhead bulkhead, VirtualTimeSource clock, int workers, Duration meanServiceTime, long seed) {
        this.bulkhead = bulkhead;
        this.clock = clock;
        this.workers = workers;
        this.random = new SplittableRandom(seed);
        serviceTime(meanServiceTime);
    }

    /**
     * Sets the mean time of the requests a worker starts from now on.
     * @param mean the mean service time
     * @return this downstream
     */
    SimulatedDownstream serviceTime(Duration mean) {
        this.meanServiceNanos = mean.toNanos();
        return this;
    }

    /**
     * Sets the share of the requests ending from now on that fail.
     * @param share between 0 and 1
     * @return this downstream
     */
    SimulatedDownstream failing(double share) {
        this.failureShare = share;
        return this;
    }

    /**
     * Sends calls for a while and lets the clock run through it.
     * @param callsPerSecond the arrival rate
     * @param duration how long calls arrive
     * @return what happened to the calls that arrived or ended in that time
     */
    Stretch run(int callsPerSecond, Duration duration) {
        Stretch stretch = new Stretch(this.bulkhead.limit());
        this.current = stretch;
        long calls = duration.toNanos() * callsPerSecond / NANOS_PER_SECOND;
        long start = this.clock.nanoTime();
        for (long call = 0; call < calls; call++) {
            long at = start + call * NANOS_PER_SECOND / callsPerSecond;
            this.clock.advance(Duration.ofNanos(at - this.clock.nanoTime()));
            arrive();
        }
        this.clock.advance(Duration.ofNanos(start + duration.toNanos() - this.clock.nanoTime()));
        stretch.lastLimit = this.bulkhead.limit();
        return stretch;
    }

    private void arrive() {
        Stretch stretch = this.current;
        stretch.arrivals++;
        stretch.seeLimit(this.bulkhead.limit());
        CompletableFuture<Bulkhead.Permit> admission = this.bulkhead.acquireAsync();
        if (admission.isCompletedExceptionally()) {
            stretch.refused++;
            return;
        }
        Bulkhead.Permit permit = admission.join();
        long admitted = this.clock.nanoTime();
        Runnable request = () -> serve(() -> end(permit, admitted));
        if (this.busy < this.workers) {
            request.run();
        }
        else {
            this.queue.add(request);
        }
    }

    private void serve(Runnable end) {
        this.busy++;
        long nanos = Math.round(-this.meanServiceNanos * Math.log(1 - this.random.nextDouble()));
        this.clock.schedule(() -> {
            this.busy--;
            Runnable next = this.queue.poll();
            if (next != null) {
                next.run();
            }
            end.run();
        }, Duration.ofNanos(nanos));
    }

    private void end(Bulkhead.Permit permit, long admitted) {
        Stretch stretch = this.current;
        long latency = this.clock.nanoTime() - admitted;
        stretch.ended++;
        stretch.longestLatencyNanos = Math.max(stretch.longestLatencyNanos, latency);
        if (this.random.nextDouble() < this.failureShare) {
            this.bulkhead.onError(permit, latency, new IllegalStateException("failed"));
        }
        else {
            this.bulkhead.onSuccess(permit, latency);
        }
    }

    /**
     * What happened while calls arrived for one stretch of time. Calls still running at
     * its end are counted by the stretch in which they end.
     */
    static final class Stretch {

        private long arrivals;

        private long refused;

        private long ended;

        private long longestLatencyNanos;

        private int lowestLimit;

        private int highestLimit;

        private int lastLimit;

        private Stretch(int limit) {
            this.lowestLimit = limit;
            this.highestLimit = limit;
        }

        private void seeLimit(int limit) {
            this.lowestLimit = Math.min(this.lowestLimit, limit);
            this.highestLimit = Math.max(this.highestLimit, limit);
        }

        long arrivals() {
            return this.arrivals;
        }

        long refused() {
            return this.refused;
        }

        /**
         * Returns the calls that ended in the stretch, per second.
         * @param duration the stretch's duration
         * @return the throughput
         */
        double endedPerSecond(Duration duration) {
            return this.ended * 1e9 / duration.toNanos();
        }

        Duration longestLatency() {
            return Duration.ofNanos(this.longestLatencyNanos);
        }

        /**
         * Returns the lowest limit a call met when it arrived.
         * @return the lowest limit
         */
        int lowestLimit() {
            return this.lowestLimit;
        }

        /**
         * Returns the highest limit a call met when it arrived.
         * @return the highest limit
         */
        int highestLimit() {
            return this.highestLimit;
        }

        /**
         * Returns the limit at the end of the stretch.
         * @return the limit
         */
        int lastLimit() {
            return this.lastLimit;
        }

    }

}
