package dev.resilience.benchmarks.storm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.resilience.benchmarks.simulator.SimulatorCharts;
import dev.resilience.benchmarks.simulator.SimulatorOptions;

/**
 * Simulates a retry storm for each {@link RetryStrategy}: clients calling at a steady
 * rate, a server of fixed capacity that goes fully down and comes back. Prints a Markdown
 * table of the load amplification and the busiest second during the outage, the peak
 * after recovery, the time to drain and the calls that succeeded, and writes the load per
 * second as {@code retry-storm.csv} and as a chart, {@code retry-storm.png}.
 *
 * <p>
 * Options, all {@code --name=value}: the settings of {@link StormScenario#parse} and
 * {@code --out}, the folder of the CSV and the chart ({@code target/retry-storm} by
 * default).
 */
public final class RetryStormSimulator {

    private RetryStormSimulator() {
    }

    /**
     * Runs the simulation of every strategy and writes the reports.
     * @param args {@code --name=value} options
     * @throws IOException if a report cannot be written
     */
    public static void main(String[] args) throws IOException {
        SimulatorCharts.useHeadlessGraphics();
        SimulatorOptions options = SimulatorOptions.parse(args);
        Path out = Path.of(options.text("out", "target/retry-storm"));
        StormScenario scenario = StormScenario.parse(options);
        options.requireAllRead();
        List<StormResult> results = new ArrayList<>();
        for (RetryStrategy strategy : RetryStrategy.values()) {
            results.add(StormSimulation.run(scenario, strategy));
        }
        System.out.println(StormReport.markdown(results));
        Files.createDirectories(out);
        Path csv = out.resolve("retry-storm.csv");
        Path png = out.resolve("retry-storm.png");
        StormReport.writeCsv(results, csv);
        StormChart.writePng(results, png);
        System.out.println("Wrote " + csv + " and " + png);
    }

}
