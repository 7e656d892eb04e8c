package dev.resilience.benchmarks.bulkhead;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.resilience.benchmarks.simulator.SimulatorCharts;
import dev.resilience.benchmarks.simulator.SimulatorOptions;

/**
 * Simulates calls through each {@link BulkheadStrategy} to a downstream of fixed workers
 * whose service time rises for a while and recovers. Prints a Markdown table of the
 * latencies of the admitted calls, the share refused, the throughput and the limit
 * before, during and after the slowdown, and writes every second as
 * {@code adaptive-bulkhead.csv} and as a chart, {@code adaptive-bulkhead.png}.
 *
 * <p>
 * Options, all {@code --name=value}: the settings of {@link BulkheadScenario#parse} and
 * {@code --out}, the folder of the CSV and the chart ({@code target/adaptive-bulkhead} by
 * default).
 */
public final class AdaptiveBulkheadSimulator {

    private AdaptiveBulkheadSimulator() {
    }

    /**
     * Runs the simulation of every strategy and writes the reports.
     * @param args {@code --name=value} options
     * @throws IOException if a report cannot be written
     */
    public static void main(String[] args) throws IOException {
        SimulatorCharts.useHeadlessGraphics();
        SimulatorOptions options = SimulatorOptions.parse(args);
        Path out = Path.of(options.text("out", "target/adaptive-bulkhead"));
        BulkheadScenario scenario = BulkheadScenario.parse(options);
        options.requireAllRead();
        List<BulkheadResult> results = new ArrayList<>();
        for (BulkheadStrategy strategy : BulkheadStrategy.values()) {
            results.add(BulkheadSimulation.run(scenario, strategy));
        }
        System.out.println(BulkheadReport.markdown(results));
        Files.createDirectories(out);
        Path csv = out.resolve("adaptive-bulkhead.csv");
        Path png = out.resolve("adaptive-bulkhead.png");
        BulkheadReport.writeCsv(results, csv);
        BulkheadChart.writePng(results, png);
        System.out.println("Wrote " + csv + " and " + png);
    }

}
