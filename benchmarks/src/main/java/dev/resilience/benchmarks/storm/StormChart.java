package dev.resilience.benchmarks.storm;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws the load on the server over time, one line per strategy, with the server's
 * capacity and its outage marked, as a PNG.
 */
final class StormChart {

    private static final int WIDTH = 1200;

    private static final int HEIGHT = 700;

    private static final Color[] COLORS = { new Color(0xD62728), new Color(0xFF7F0E), new Color(0x1F77B4),
            new Color(0x9467BD), new Color(0x2CA02C) };

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
        chart.setBackgroundPaint(Color.WHITE);
        XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.getDomainAxis().setRange(0, scenario.duration());
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        for (int index = 0; index < results.size(); index++) {
            renderer.setSeriesPaint(index, COLORS[index % COLORS.length]);
            renderer.setSeriesStroke(index, new BasicStroke(2.0f));
        }
        plot.setRenderer(renderer);
        plot.addDomainMarker(outage(scenario), Layer.BACKGROUND);
        plot.addRangeMarker(capacity(scenario));
        ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
    }

    private static IntervalMarker outage(StormScenario scenario) {
        IntervalMarker outage = new IntervalMarker(scenario.outageStart(), scenario.outageEnd(),
                new Color(0, 0, 0, 20));
        outage.setLabel("server down");
        outage.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        outage.setLabelAnchor(RectangleAnchor.TOP);
        outage.setLabelTextAnchor(TextAnchor.TOP_CENTER);
        return outage;
    }

    private static ValueMarker capacity(StormScenario scenario) {
        ValueMarker capacity = new ValueMarker(scenario.capacity(), Color.BLACK,
                new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] { 8f, 6f }, 0f));
        capacity.setLabel(String.format(Locale.ROOT, "capacity %,d/s", scenario.capacity()));
        capacity.setLabelFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        capacity.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
        capacity.setLabelTextAnchor(TextAnchor.BOTTOM_RIGHT);
        return capacity;
    }

}
