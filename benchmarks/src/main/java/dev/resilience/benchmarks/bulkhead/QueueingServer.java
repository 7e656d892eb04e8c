package dev.resilience.benchmarks.bulkhead;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

import dev.resilience.core.time.VirtualTimeSource;

/**
 * A downstream of a fixed number of workers before one queue, first come first served, on
 * the virtual clock: a request is served at once by a free worker, or waits in the queue
 * for one, so its latency grows with the requests sent ahead of it. A worker's time for a
 * request is drawn when it starts the request, around a mean that is the scenario's
 * service time, or that times the slowdown factor during the slowdown. Every request
 * succeeds. Not thread-safe: the simulation runs on one thread.
 */
final class QueueingServer {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private static final Object RESPONSE = "ok";

    private final BulkheadScenario scenario;

    private final VirtualTimeSource clock;

    private final SplittableRandom random;

    private final ArrayDeque<CompletableFuture<Object>> queue = new ArrayDeque<>();

    private int busy;

    QueueingServer(BulkheadScenario scenario, VirtualTimeSource clock) {
        this.scenario = scenario;
        this.clock = clock;
        this.random = new SplittableRandom(scenario.seed());
    }

    CompletableFuture<Object> handle() {
        CompletableFuture<Object> response = new CompletableFuture<>();
        if (this.busy < this.scenario.workers()) {
            serve(response);
        }
        else {
            this.queue.add(response);
        }
        return response;
    }

    /**
     * Returns how many requests the downstream holds: served and waiting.
     * @return the requests in the downstream now
     */
    int requests() {
        return this.busy + this.queue.size();
    }

    private void serve(CompletableFuture<Object> response) {
        this.busy++;
        this.clock.schedule(() -> finish(response), serviceTime());
    }

    private void finish(CompletableFuture<Object> response) {
        this.busy--;
        CompletableFuture<Object> next = this.queue.poll();
        if (next != null) {
            serve(next);
        }
        response.complete(RESPONSE);
    }

    private Duration serviceTime() {
        double mean = this.scenario.meanServiceNanos(this.clock.nanoTime() / NANOS_PER_SECOND);
        return Duration.ofNanos(this.scenario.serviceTimes().draw(mean, this.random));
    }

}
