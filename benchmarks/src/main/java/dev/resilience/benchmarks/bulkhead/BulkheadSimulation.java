package dev.resilience.benchmarks.bulkhead;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;

/**
 * Runs one strategy through one scenario on a {@link VirtualTimeSource}: every call is a
 * {@link ResiliencePipeline#executeAsync} whose one attempt, if the engine's
 * {@link Bulkhead} admits it, is a request to the {@link QueueingServer} and holds its
 * permit until the server answers; the limit moves as the bulkhead decides from the
 * latencies the pipeline reports to it. Calls arrive open loop, at equal intervals, and
 * every step runs on the thread that advances the clock. Deterministic: the same scenario
 * and strategy give the same result.
 */
final class BulkheadSimulation {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    /** How long the calls still running when arrivals stop may take to end. */
    private static final int MAX_DRAIN_SECONDS = 3600;

    private final BulkheadScenario scenario;

    private final BulkheadStrategy strategy;

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final QueueingServer server;

    private final @Nullable Bulkhead bulkhead;

    private final ResiliencePipeline pipeline;

    private final List<Tally> tallies = new ArrayList<>();

    private long started;

    private long ended;

    private @Nullable ExecutionResult<Object> unexpected;

    private BulkheadSimulation(BulkheadScenario scenario, BulkheadStrategy strategy) {
        this.scenario = scenario;
        this.strategy = strategy;
        this.server = new QueueingServer(scenario, this.clock);
        this.bulkhead = strategy.bulkhead(scenario, this.clock);
        this.pipeline = ResiliencePipeline.builder(strategy.id())
            .timeSource(this.clock)
            .executor(Runnable::run)
            .bulkhead(this.bulkhead)
            .build();
    }

    /**
     * Simulates the scenario with the strategy until every call has ended.
     * @param scenario the calls, the downstream and its slowdown
     * @param strategy the bulkhead before the downstream
     * @return what happened in each second
     */
    static BulkheadResult run(BulkheadScenario scenario, BulkheadStrategy strategy) {
        return new BulkheadSimulation(scenario, strategy).run();
    }

    private BulkheadResult run() {
        this.clock.schedule(this::arrive, Duration.ZERO);
        this.clock.schedule(this::endSecond, Duration.ofSeconds(1));
        this.clock.advance(Duration.ofSeconds(this.scenario.duration()));
        int drained = 0;
        while (this.ended < this.started && drained++ < MAX_DRAIN_SECONDS) {
            this.clock.advance(Duration.ofSeconds(1));
        }
        if (this.unexpected != null) {
            throw new IllegalStateException(this.strategy.id() + ": a call ended " + this.unexpected);
        }
        if (this.ended != this.started) {
            throw new IllegalStateException(this.strategy.id() + ": " + (this.started - this.ended)
                    + " calls were still running " + MAX_DRAIN_SECONDS + " s after the last arrival");
        }
        return new BulkheadResult(this.strategy, this.scenario, this.tallies.stream().map(Tally::second).toList());
    }

    private void arrive() {
        long now = this.clock.nanoTime();
        Tally arrival = tally(now);
        arrival.arrivals++;
        this.started++;
        this.pipeline.<Object>executeAsync(CallContext.empty(), this.server::handle)
            .thenAccept((result) -> ended(now, arrival, result));
        long next = this.started * NANOS_PER_SECOND / this.scenario.rate();
        if (next < this.scenario.duration() * NANOS_PER_SECOND) {
            this.clock.schedule(this::arrive, Duration.ofNanos(next - now));
        }
    }

    private void ended(long arrivedAt, Tally arrival, ExecutionResult<Object> result) {
        this.ended++;
        if (result.isSuccess()) {
            long now = this.clock.nanoTime();
            tally(now).latencies.add(now - arrivedAt);
        }
        else if (result.status() == ExecutionStatus.REJECTED && result.error() instanceof BulkheadFullException) {
            arrival.refused++;
        }
        else if (this.unexpected == null) {
            this.unexpected = result;
        }
    }

    /**
     * Records the limit and the downstream's requests as a second ends, at the first
     * instant of the next one.
     */
    private void endSecond() {
        Tally ending = tally(this.clock.nanoTime() - 1);
        ending.limit = (this.bulkhead != null) ? this.bulkhead.limit() : -1;
        ending.downstreamRequests = this.server.requests();
        this.clock.schedule(this::endSecond, Duration.ofSeconds(1));
    }

    private Tally tally(long nanos) {
        int second = (int) (nanos / NANOS_PER_SECOND);
        while (this.tallies.size() <= second) {
            this.tallies.add(new Tally());
        }
        return this.tallies.get(second);
    }

    /** The counts of one second while the simulation runs. */
    private static final class Tally {

        private long arrivals;

        private long refused;

        private final LongStream.Builder latencies = LongStream.builder();

        private int limit = -1;

        private int downstreamRequests;

        Second second() {
            return new Second(this.arrivals, this.refused, this.latencies.build().sorted().toArray(), this.limit,
                    this.downstreamRequests);
        }

    }

}
