package org.jspin.report.chart;

import java.awt.Color;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.SeriesRenderingOrder;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jspin.nic.sim.experiment.ChartSpec;
import org.jspin.nic.sim.experiment.ChartSpec.Arrangement;

/**
 * Line charts over a numeric x: one line per series, shapes on the points where they are few enough to
 * see; in one plot, or in a panel per series over the same x.
 */
final class LineCharts {
    /** Above this many points a series is drawn as a line alone: the shapes would merge into a band. */
    static final int MAX_SHAPES = 60;
    /** Height of one panel when each series has its own. */
    static final int PANEL_PX = 130;
    /** A log x axis reaches this fraction of a power beyond the data, so the end points are not cut in half. */
    private static final double LOG_PAD = 0.08;

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
        XYSeriesCollection all = new XYSeriesCollection();
        series.values().forEach(all::addSeries);
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(xAxis(all, c));
        plot.setGap(8);
        boolean panels = c.layout() == Arrangement.PANELS;
        if (panels) {
            int i = 0;
            for (XYSeries s : series.values()) {
                plot.add(panel(new XYSeriesCollection(s), c, s.getKey().toString(), i++), 1);
            }
        } else {
            plot.add(panel(all, c, c.yLabel(), 0), 1);
        }
        JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        ChartStyle.finish(chart, !panels && all.getSeriesCount() > 1);
        if (!panels) {
            return new RenderedChart(chart, Charts.WIDTH, Charts.HEIGHT);
        }
        // each panel's axis names its series, so the quantity drawn is said once, under the title
        TextTitle what = new TextTitle("each panel: " + c.yLabel() + ", one per " + (c.series() == null ? "series"
                : c.series()), ChartStyle.TICKS);
        chart.addSubtitle(what);
        return new RenderedChart(chart, Charts.WIDTH, 160 + series.size() * PANEL_PX);
    }

    private static ValueAxis xAxis(XYSeriesCollection data, ChartSpec c) {
        if (c.logX() && data.getSeriesCount() > 0) {
            return ChartStyle.logAxis(c.xLabel(), 2, data.getDomainLowerBound(false),
                    data.getDomainUpperBound(false), LOG_PAD);
        }
        NumberAxis x = new NumberAxis(c.xLabel());
        x.setAutoRangeIncludesZero(false);
        ChartStyle.fonts(x);
        return x;
    }

    /** @return a plot of {@code data}, its series coloured from {@code firstColour} on */
    private static XYPlot panel(XYSeriesCollection data, ChartSpec c, String yLabel, int firstColour) {
        ValueAxis y;
        if (c.logY() && data.getSeriesCount() > 0) {
            y = ChartStyle.logAxis(yLabel, 10, data.getRangeLowerBound(false), data.getRangeUpperBound(false), 0);
        } else {
            y = new NumberAxis(yLabel);
            ChartStyle.fonts(y);
        }
        XYLineAndShapeRenderer lines = new XYLineAndShapeRenderer(true, true);
        List<?> list = data.getSeries();
        for (int i = 0; i < list.size(); i++) {
            lines.setSeriesPaint(i, ChartStyle.paint(firstColour + i));
            // dashes tell lines apart where they cross; a line alone in its panel stays solid
            lines.setSeriesStroke(i, ChartStyle.stroke(list.size() > 1 ? firstColour + i : 0));
            lines.setSeriesShapesVisible(i, data.getItemCount(i) <= MAX_SHAPES);
        }
        XYPlot plot = new XYPlot(data, null, y, lines);
        plot.setSeriesRenderingOrder(SeriesRenderingOrder.FORWARD); // later, dashed lines stay visible over solid ones
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        if (!Double.isNaN(c.reference())) {
            plot.addRangeMarker(ChartStyle.marker(c, false));
        }
        return plot;
    }
}
