package org.jspin.report.chart;

import java.awt.Color;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jspin.nic.sim.experiment.ChartSpec;

/** Line charts over a numeric x: one line per series, shapes on the points where they are few enough to see. */
final class LineCharts {
    /** Above this many points a series is drawn as a line alone: the shapes would merge into a band. */
    static final int MAX_SHAPES = 60;

    private LineCharts() {
    }

    static RenderedChart render(ChartPoints points, ChartSpec c, String title) {
        Map<String, XYSeries> series = new LinkedHashMap<>();
        for (ChartPoints.Point p : points.points()) {
            if (Double.isNaN(p.x()) || Double.isInfinite(p.value())) {
                continue;
            }
            series.computeIfAbsent(p.series(), k -> new XYSeries(k, true, true)).addOrUpdate(p.x(), p.value());
        }
        XYSeriesCollection data = new XYSeriesCollection();
        series.values().forEach(data::addSeries);
        JFreeChart chart = ChartFactory.createXYLineChart(title, c.xLabel(), c.yLabel(), data, PlotOrientation.VERTICAL,
                true, false, false);
        XYPlot plot = chart.getXYPlot();
        if (c.logX() && data.getSeriesCount() > 0) {
            plot.setDomainAxis(ChartStyle.logAxis(c.xLabel(), 2, data.getDomainLowerBound(false),
                    data.getDomainUpperBound(false)));
        }
        if (c.logY() && data.getSeriesCount() > 0) {
            plot.setRangeAxis(ChartStyle.logAxis(c.yLabel(), 10, data.getRangeLowerBound(false),
                    data.getRangeUpperBound(false)));
        }
        if (plot.getDomainAxis() instanceof NumberAxis x && !(plot.getDomainAxis() instanceof LogAxis)) {
            x.setAutoRangeIncludesZero(false);
        }
        ChartStyle.fonts(plot.getDomainAxis());
        ChartStyle.fonts(plot.getRangeAxis());
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        XYLineAndShapeRenderer lines = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            lines.setSeriesPaint(i, ChartStyle.paint(i));
            lines.setSeriesStroke(i, ChartStyle.stroke(i));
            lines.setSeriesShapesVisible(i, data.getItemCount(i) <= MAX_SHAPES);
        }
        plot.setRenderer(lines);
        if (!Double.isNaN(c.reference())) {
            plot.addRangeMarker(ChartStyle.marker(c, false));
        }
        ChartStyle.finish(chart, data.getSeriesCount() > 1);
        return new RenderedChart(chart, Charts.WIDTH, Charts.HEIGHT);
    }
}
