package dev.resilience.benchmarks.storm;

import java.time.Duration;
import java.util.SplittableRandom;

import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.time.VirtualTimeSource;

/**
 * Runs one strategy through one scenario on a {@link VirtualTimeSource}: every client
 * call is a {@link ResiliencePipeline#executeAsync} whose attempts are requests to the
 * {@link SimulatedServer}, so the waits, jitter and budget are the engine's own,
 * scheduled on the virtual clock, and every step runs on the thread that advances it.
 * Deterministic: the same scenario and strategy give the same result.
 */
final class StormSimulation {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final StormScenario scenario;

    private final RetryStrategy strategy;

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final SimulatedServer server;

    private final ResiliencePipeline pipeline;

    private final long[] calls;

    private final int horizon;

    private long started;

    private long completed;

    private long succeeded;

    private StormSimulation(StormScenario scenario, RetryStrategy strategy) {
        this.scenario = scenario;
        this.strategy = strategy;
        this.horizon = (int) Duration.ofSeconds(scenario.duration() + 1)
            .plus(RetryStrategy.longestRetrySpan(scenario.maxAttempts()))
            .toSeconds();
        this.server = new SimulatedServer(scenario, this.clock, this.horizon);
        this.pipeline = ResiliencePipeline.builder(strategy.id())
            .timeSource(this.clock)
            .executor(Runnable::run)
            .retry(strategy.policy(scenario.maxAttempts(), new SplittableRandom(scenario.seed()), this.clock))
            .build();
        this.calls = new long[scenario.duration()];
    }

    /**
     * Simulates the scenario with the strategy until every call has ended.
     * @param scenario the clients, the server and its outage
     * @param strategy how the clients retry
     * @return the per-second load and the calls' outcomes
     */
    static StormResult run(StormScenario scenario, RetryStrategy strategy) {
        return new StormSimulation(scenario, strategy).run();
    }

    private StormResult run() {
        long period = NANOS_PER_SECOND / this.scenario.clients();
        for (int client = 0; client < this.scenario.clients(); client++) {
            this.clock.schedule(this::callAndRepeat, Duration.ofNanos(client * period));
        }
        this.clock.advance(Duration.ofSeconds(this.horizon));
        if (this.completed != this.started) {
            throw new IllegalStateException(this.strategy.id() + ": " + (this.started - this.completed)
                    + " calls were still running at the end of the simulation");
        }
        return new StormResult(this.strategy, this.scenario, this.server.load(), this.server.served(), this.calls,
                this.started, this.succeeded);
    }

    private void callAndRepeat() {
        int second = (int) (this.clock.nanoTime() / NANOS_PER_SECOND);
        this.calls[second]++;
        this.started++;
        this.pipeline.<Object>executeAsync(CallContext.empty(), this.server::handle).thenAccept(this::ended);
        if (second + 1 < this.scenario.duration()) {
            this.clock.schedule(this::callAndRepeat, Duration.ofSeconds(1));
        }
    }

    private void ended(ExecutionResult<Object> result) {
        this.completed++;
        if (result.isSuccess()) {
            this.succeeded++;
        }
    }

}
