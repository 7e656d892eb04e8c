package dev.resilience.benchmarks.storm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * Writes the simulator's results as a Markdown table and as a CSV of the load per second.
 */
final class StormReport {

    private StormReport() {
    }

    /**
     * Renders the results as a Markdown table, one row per strategy.
     * @param results the results, all of one scenario
     * @return the table, with a line describing the scenario above it
     */
    static String markdown(List<StormResult> results) {
        StormScenario scenario = results.get(0).scenario();
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT,
                "%,d clients at 1 call/s each, server capacity %,d requests/s, down from %ds to %ds, %ds in all, "
                        + "%d attempts per call, seed %d%n%n",
                scenario.clients(), scenario.capacity(), scenario.outageStart(), scenario.outageEnd(),
                scenario.duration(), scenario.maxAttempts(), scenario.seed()));
        table.append("| strategy | amplification during the outage | peak load during the outage "
                + "| peak load after recovery | time to drain | calls that succeeded |\n");
        table.append("|---|---:|---:|---:|---:|---:|\n");
        for (StormResult result : results) {
            long outagePeak = result.peakDuringOutage();
            long recoveryPeak = result.peakAfterRecovery();
            table.append(String.format(Locale.ROOT,
                    "| %s | %.2fx | %,d/s (%.2fx normal) | %,d/s (%.2fx capacity) | %s | %.1f%% |%n",
                    result.strategy().label(), result.amplificationDuringOutage(), outagePeak,
                    (double) outagePeak / result.normalLoad(), recoveryPeak,
                    (double) recoveryPeak / scenario.capacity(), drain(result.drainSeconds(), scenario),
                    100 * result.successShare()));
        }
        return table.toString();
    }

    /**
     * Writes the requests that reached the server in each second of the scenario, one
     * column per strategy, and the server's capacity.
     * @param results the results, all of one scenario
     * @param file where to write
     * @throws IOException if the file cannot be written
     */
    static void writeCsv(List<StormResult> results, Path file) throws IOException {
        StormScenario scenario = results.get(0).scenario();
        StringBuilder csv = new StringBuilder("second,capacity");
        for (StormResult result : results) {
            csv.append(',').append(result.strategy().id());
        }
        csv.append('\n');
        for (int second = 0; second < scenario.duration(); second++) {
            csv.append(second).append(',').append(scenario.capacity());
            for (StormResult result : results) {
                csv.append(',').append(result.load()[second]);
            }
            csv.append('\n');
        }
        Files.writeString(file, csv, StandardCharsets.UTF_8);
    }

    private static String drain(OptionalInt seconds, StormScenario scenario) {
        if (seconds.isEmpty()) {
            return "not within " + (scenario.duration() - scenario.outageEnd()) + " s";
        }
        return seconds.getAsInt() + " s";
    }

}
