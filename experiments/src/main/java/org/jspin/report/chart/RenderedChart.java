package org.jspin.report.chart;

import java.io.IOException;
import java.nio.file.Path;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;

/**
 * A chart and the size it needs to be read: a horizontal bar chart grows with its categories.
 *
 * @param chart  the chart
 * @param width  its width in pixels
 * @param height its height in pixels
 */
public record RenderedChart(JFreeChart chart, int width, int height) {
    /** Writes the chart as a PNG. */
    public void save(Path png) throws IOException {
        ChartUtils.saveChartAsPNG(png.toFile(), chart, width, height);
    }
}
