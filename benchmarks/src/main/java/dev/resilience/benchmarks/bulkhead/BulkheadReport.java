package dev.resilience.benchmarks.bulkhead;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Writes the simulator's results as a Markdown table and as a CSV of every second.
 */
final class BulkheadReport {

    private static final double NANOS_PER_MILLI = 1_000_000.0;

    private BulkheadReport() {
    }

    /**
     * Renders the results as a Markdown table, one row per strategy and phase.
     * @param results the results, all of one scenario
     * @return the table, with a line describing the scenario above it
     */
    static String markdown(List<BulkheadResult> results) {
        BulkheadScenario scenario = results.get(0).scenario();
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT,
                "%,d calls/s to %d workers of %d ms (%s, capacity %,.0f/s), %dx slower from %ds to %ds, %ds in all, "
                        + "seed %d%n%n",
                scenario.rate(), scenario.workers(), scenario.serviceTimeMillis(), scenario.serviceTimes().id(),
                scenario.capacity(), scenario.slowdownFactor(), scenario.slowdownStart(), scenario.slowdownEnd(),
                scenario.duration(), scenario.seed()));
        table.append("| strategy | phase | p50 | p99 | max | refused | completed/s | limit |\n");
        table.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (BulkheadResult result : results) {
            for (Phase phase : Phase.values()) {
                PhaseFigures figures = result.figures(phase);
                table.append(String.format(Locale.ROOT, "| %s | %s (%d–%d s) | %s | %s | %s | %.1f%% | %.1f | %s |%n",
                        result.strategy().label(scenario), phase.label(), phase.from(scenario), phase.to(scenario),
                        latency(figures.p50()), latency(figures.p99()), latency(figures.max()),
                        100 * figures.refusedShare(), figures.throughput(),
                        limits(figures.lowestLimit(), figures.highestLimit())));
            }
        }
        return table.toString();
    }

    /**
     * Writes one row per strategy and second: the calls that arrived, were refused and
     * ended, the latencies of those that ended, the limit and the downstream's requests
     * at the end of the second.
     * @param results the results, all of one scenario
     * @param file where to write
     * @throws IOException if the file cannot be written
     */
    static void writeCsv(List<BulkheadResult> results, Path file) throws IOException {
        StringBuilder csv = new StringBuilder(
                "strategy,second,arrivals,refused,completed,p50_ms,p99_ms,max_ms,limit,downstream_requests\n");
        for (BulkheadResult result : results) {
            for (int index = 0; index < result.seconds().size(); index++) {
                Second second = result.seconds().get(index);
                csv.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%s,%s,%s,%s,%d%n", result.strategy().id(), index,
                        second.arrivals(), second.refused(), second.completed(), millis(second.latency(0.5)),
                        millis(second.latency(0.99)), millis(second.latency(1.0)),
                        (second.limit() >= 0) ? Integer.toString(second.limit()) : "", second.downstreamRequests()));
            }
        }
        Files.writeString(file, csv, StandardCharsets.UTF_8);
    }

    private static String latency(OptionalLong nanos) {
        if (nanos.isEmpty()) {
            return "–";
        }
        double millis = nanos.getAsLong() / NANOS_PER_MILLI;
        return (millis < 1000) ? String.format(Locale.ROOT, "%.0f ms", millis)
                : String.format(Locale.ROOT, "%.1f s", millis / 1000);
    }

    private static String millis(OptionalLong nanos) {
        return nanos.isPresent() ? String.format(Locale.ROOT, "%.3f", nanos.getAsLong() / NANOS_PER_MILLI) : "";
    }

    private static String limits(OptionalInt lowest, OptionalInt highest) {
        if (lowest.isEmpty() || highest.isEmpty()) {
            return "–";
        }
        return (lowest.getAsInt() == highest.getAsInt()) ? Integer.toString(lowest.getAsInt())
                : lowest.getAsInt() + "–" + highest.getAsInt();
    }

}
