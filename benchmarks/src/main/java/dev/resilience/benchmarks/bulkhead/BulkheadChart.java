package dev.resilience.benchmarks.bulkhead;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

import dev.resilience.benchmarks.simulator.SimulatorCharts;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws, as a PNG, three plots over one time axis, one line per strategy: the 99th
 * percentile latency of the admitted calls that ended in each second, on a logarithmic
 * scale; the limit of each bulkhead at the end of each second, with the downstream's
 * workers marked; and the admitted calls that ended in each second. The slowdown is
 * shaded in all three.
 */
final class BulkheadChart {

    private static final int WIDTH = 1200;

    private static final int HEIGHT = 1100;

    private static final double NANOS_PER_MILLI = 1_000_000.0;

    private BulkheadChart() {
    }

    /**
     * Draws the chart of the results into a PNG file.
     * @param results the results, all of one scenario
     * @param file where to write the PNG
     * @throws IOException if the file cannot be written
     */
    static void writePng(List<BulkheadResult> results, Path file) throws IOException {
        BulkheadScenario scenario = results.get(0).scenario();
        NumberAxis time = new NumberAxis("time (s)");
        time.setRange(0, scenario.duration());
        time.setTickUnit(new NumberTickUnit(10));
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(time);
        plot.setGap(14);
        plot.add(latencies(results, scenario), 5);
        plot.add(limits(results, scenario), 3);
        plot.add(throughput(results, scenario), 3);
        JFreeChart chart = new JFreeChart(
                String.format(Locale.ROOT,
                        "Bulkheads before %d workers of %d ms (%s) at %,d calls/s, service time x%d from %d s to %d s",
                        scenario.workers(), scenario.serviceTimeMillis(), scenario.serviceTimes().id(), scenario.rate(),
                        scenario.slowdownFactor(), scenario.slowdownStart(), scenario.slowdownEnd()),
                new Font(Font.SANS_SERIF, Font.BOLD, 18), plot, true);
        chart.setPadding(new RectangleInsets(4, 4, 4, 16));
        SimulatorCharts.writePng(chart, file, WIDTH, HEIGHT);
    }

    private static XYPlot latencies(List<BulkheadResult> results, BulkheadScenario scenario) {
        LogAxis axis = new LogAxis("p99 latency of admitted calls (ms)");
        axis.setBase(10);
        axis.setSmallestValue(1);
        axis.setTickUnit(new NumberTickUnit(1));
        axis.setNumberFormatOverride(new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.ROOT)));
        return plot(results, scenario, axis, true, (second) -> second.latency(0.99).orElse(-1) / NANOS_PER_MILLI);
    }

    private static XYPlot limits(List<BulkheadResult> results, BulkheadScenario scenario) {
        NumberAxis axis = new NumberAxis("bulkhead limit (calls)");
        axis.setAutoRangeIncludesZero(true);
        XYPlot plot = plot(results, scenario, axis, false, Second::limit);
        plot.addRangeMarker(SimulatorCharts.level(scenario.workers(),
                String.format(Locale.ROOT, "downstream workers: %d", scenario.workers())));
        return plot;
    }

    private static XYPlot throughput(List<BulkheadResult> results, BulkheadScenario scenario) {
        NumberAxis axis = new NumberAxis("admitted calls ended per second");
        axis.setAutoRangeIncludesZero(true);
        return plot(results, scenario, axis, false, Second::completed);
    }

    /**
     * Returns a plot of one value of each second, one line per strategy; a negative value
     * is left out. The top plot names the slowdown and gives the chart its legend.
     */
    private static XYPlot plot(List<BulkheadResult> results, BulkheadScenario scenario, ValueAxis axis, boolean top,
            ToDoubleFunction<Second> value) {
        XYSeriesCollection dataset = new XYSeriesCollection();
        List<Color> colors = new ArrayList<>();
        for (BulkheadResult result : results) {
            XYSeries series = new XYSeries(result.strategy().label(scenario));
            for (int second = 0; second < scenario.duration(); second++) {
                double y = value.applyAsDouble(result.seconds().get(second));
                if (y >= 0) {
                    series.add(second, y);
                }
            }
            if (series.getItemCount() > 0) {
                dataset.addSeries(series);
                colors.add(color(result.strategy()));
            }
        }
        XYPlot plot = new XYPlot(dataset, null, axis, SimulatorCharts.lines(colors));
        SimulatorCharts.style(plot);
        plot.addDomainMarker(
                SimulatorCharts.window(scenario.slowdownStart(), scenario.slowdownEnd(),
                        top ? String.format(Locale.ROOT, "service time x%d", scenario.slowdownFactor()) : ""),
                Layer.BACKGROUND);
        if (!top) {
            plot.setFixedLegendItems(new LegendItemCollection());
        }
        return plot;
    }

    private static Color color(BulkheadStrategy strategy) {
        return SimulatorCharts.PALETTE.get(switch (strategy) {
            case NONE -> 0;
            case FIXED -> 1;
            case FIXED_HEADROOM -> 3;
            case AIMD -> 2;
            case GRADIENT -> 4;
        });
    }

}
