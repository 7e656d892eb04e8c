package dev.resilience.benchmarks.storm;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import dev.resilience.benchmarks.simulator.SimulatorCharts;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.ui.Layer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws the load on the server over time, one line per strategy, with the server's
 * capacity and its outage marked, as a PNG.
 */
final class StormChart {

    private static final int WIDTH = 1200;

    private static final int HEIGHT = 700;

    private StormChart() {
    }

    /**
     * Draws the chart of the results into a PNG file.
     * @param results the results, all of one scenario
     * @param file where to write the PNG
     * @throws IOException if the file cannot be written
     */
    static void writePng(List<StormResult> results, Path file) throws IOException {
        StormScenario scenario = results.get(0).scenario();
        XYSeriesCollection dataset = new XYSeriesCollection();
        for (StormResult result : results) {
            XYSeries series = new XYSeries(result.strategy().label());
            for (int second = 0; second < scenario.duration(); second++) {
                series.add(second, result.load()[second]);
            }
            dataset.addSeries(series);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(
                String.format(Locale.ROOT, "Retry storm: %,d clients, server down from %ds to %ds", scenario.clients(),
                        scenario.outageStart(), scenario.outageEnd()),
                "time (s)", "requests reaching the server per second", dataset, PlotOrientation.VERTICAL, true, false,
                false);
        XYPlot plot = chart.getXYPlot();
        SimulatorCharts.style(plot);
        plot.getDomainAxis().setRange(0, scenario.duration());
        plot.setRenderer(SimulatorCharts.lines(SimulatorCharts.PALETTE.subList(0, results.size())));
        plot.addDomainMarker(SimulatorCharts.window(scenario.outageStart(), scenario.outageEnd(), "server down"),
                Layer.BACKGROUND);
        plot.addRangeMarker(SimulatorCharts.level(scenario.capacity(),
                String.format(Locale.ROOT, "capacity %,d/s", scenario.capacity())));
        SimulatorCharts.writePng(chart, file, WIDTH, HEIGHT);
    }

}
