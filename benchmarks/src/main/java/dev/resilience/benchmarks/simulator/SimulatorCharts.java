package dev.resilience.benchmarks.simulator;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;

/**
 * The look the simulators' charts share: white plots with light grid lines, one solid
 * line per series in the colors of {@link #PALETTE}, a shaded stretch of time for the
 * trouble a scenario injects, and dashed reference levels; drawn headless into PNG files,
 * the same bytes for the same data.
 */
public final class SimulatorCharts {

    /** The colors of the series, in order: red, orange, blue, purple, green. */
    public static final List<Color> PALETTE = List.of(new Color(0xD62728), new Color(0xFF7F0E), new Color(0x1F77B4),
            new Color(0x9467BD), new Color(0x2CA02C));

    private static final Font LABEL_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 13);

    private static final Font LEVEL_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 13);

    private SimulatorCharts() {
    }

    /**
     * Lets the charts be drawn without a display, unless the JVM was told otherwise.
     */
    public static void useHeadlessGraphics() {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    /**
     * Gives a plot a white background and light grid lines.
     * @param plot the plot
     */
    public static void style(XYPlot plot) {
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    }

    /**
     * Returns a renderer drawing each series as a solid line without shapes.
     * @param colors the color of each series, in the order of the series
     * @return the renderer
     */
    public static XYLineAndShapeRenderer lines(List<Color> colors) {
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        for (int index = 0; index < colors.size(); index++) {
            renderer.setSeriesPaint(index, colors.get(index));
            renderer.setSeriesStroke(index, new BasicStroke(2.0f));
        }
        return renderer;
    }

    /**
     * Returns a shaded stretch of the time axis, labelled at its top.
     * @param start where it starts, in the axis's unit
     * @param end where it ends
     * @param label what happens during it
     * @return the marker, to add to a plot's domain
     */
    public static IntervalMarker window(double start, double end, String label) {
        IntervalMarker window = new IntervalMarker(start, end, new Color(0, 0, 0, 20));
        window.setLabel(label);
        window.setLabelFont(LABEL_FONT);
        window.setLabelAnchor(RectangleAnchor.TOP);
        window.setLabelTextAnchor(TextAnchor.TOP_CENTER);
        return window;
    }

    /**
     * Returns a dashed black reference level, labelled above its right end.
     * @param value the level, in the unit of the plot's range
     * @param label what the level is
     * @return the marker, to add to a plot's range
     */
    public static ValueMarker level(double value, String label) {
        ValueMarker level = new ValueMarker(value, Color.BLACK,
                new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] { 8f, 6f }, 0f));
        level.setLabel(label);
        level.setLabelFont(LEVEL_FONT);
        level.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
        level.setLabelTextAnchor(TextAnchor.BOTTOM_RIGHT);
        return level;
    }

    /**
     * Draws a chart on a white background into a PNG file.
     * @param chart the chart
     * @param file where to write the PNG
     * @param width the image's width in pixels
     * @param height the image's height in pixels
     * @throws IOException if the file cannot be written
     */
    public static void writePng(JFreeChart chart, Path file, int width, int height) throws IOException {
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(file.toFile(), chart, width, height);
    }

}
