package dev.resilience.benchmarks.bulkhead;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * What one strategy did in one scenario, second by second, and the figures the report
 * draws from it.
 *
 * @param strategy the bulkhead before the downstream
 * @param scenario the scenario
 * @param seconds every second of the simulation, from the first arrival until the last
 * call ended, which may be past the scenario's duration
 */
record BulkheadResult(BulkheadStrategy strategy, BulkheadScenario scenario, List<Second> seconds) {

    /**
     * Returns the figures of one phase: the latencies and throughput of the calls that
     * ended in it, the refusals of the calls that arrived in it, and the range of the
     * limit at the ends of its seconds.
     * @param phase the phase
     * @return the figures
     */
    PhaseFigures figures(Phase phase) {
        List<Second> span = this.seconds.subList(phase.from(this.scenario), phase.to(this.scenario));
        long[] latencies = span.stream()
            .flatMapToLong((second) -> Arrays.stream(second.latencies()))
            .sorted()
            .toArray();
        long arrivals = span.stream().mapToLong(Second::arrivals).sum();
        long refused = span.stream().mapToLong(Second::refused).sum();
        return new PhaseFigures(Quantiles.of(latencies, 0.5), Quantiles.of(latencies, 0.99),
                Quantiles.of(latencies, 1.0), (double) refused / arrivals, (double) latencies.length / span.size(),
                limits(span).min(), limits(span).max());
    }

    private static IntStream limits(List<Second> span) {
        return span.stream().mapToInt(Second::limit).filter((limit) -> limit >= 0);
    }

}
