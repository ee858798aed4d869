package org.jspin.report.chart;

import java.awt.Color;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.NumberFormat;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.AxisLocation;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedRangeCategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jspin.nic.sim.experiment.ChartSpec;
import org.jspin.nic.sim.experiment.ChartSpec.Arrangement;

/**
 * Bar charts over categories. Laid out horizontally, every category gets a row of its own, so the image
 * grows with them, and the value axis and legend sit on top, next to the title.
 */
final class BarCharts {
    /** Vertical category labels are tilted past this many categories, where level ones would run together. */
    static final int MAX_LEVEL_LABELS = 12;
    /** Pixels a horizontal bar chart gives each bar. */
    static final int BAR_PX = 6;
    /** Pixels a horizontal bar chart gives at least each category: a label's height. */
    static final int CATEGORY_PX = 18;
    /** Pixels a panel gets at least: its application's name. */
    static final int GROUP_PX = 40;
    /** Room above the first bar for the reference line's label. */
    static final int MARKER_PX = 22;
    /** Marks a category whose value is infinite, which no bar can show. */
    static final String INFINITE = " (∞, not drawn)";
    /** Values beside bars: whole numbers plain, others to two decimals, thousands grouped. */
    private static final NumberFormat VALUES = new DecimalFormat("#,##0.##",
            DecimalFormatSymbols.getInstance(Locale.ROOT));

    private BarCharts() {
    }

    static RenderedChart render(ChartPoints points, ChartSpec c, String title) {
        boolean horizontal = c.layout() == Arrangement.HORIZONTAL || c.layout() == Arrangement.GROUPED;
        boolean stacked = onePerCategory(points);
        int perCategory = Math.max(CATEGORY_PX, BAR_PX * (stacked ? 1 : points.series().size()) + 8);
        Map<String, String> labels = labels(points);
        CombinedRangeCategoryPlot plot = new CombinedRangeCategoryPlot(valueAxis(points, c));
        plot.setOrientation(horizontal ? PlotOrientation.HORIZONTAL : PlotOrientation.VERTICAL);
        plot.setGap(10);
        int height = 200;
        for (CategoryGroups.Group g : CategoryGroups.of(points, c.layout())) {
            boolean top = plot.getSubplots().isEmpty();
            CategoryPlot panel = new CategoryPlot(dataset(points, g, labels), categoryAxis(c, g, horizontal), null,
                    renderer(points.series().size(), stacked, horizontal));
            panel.setBackgroundPaint(Color.WHITE);
            panel.setRangeGridlinePaint(Color.LIGHT_GRAY);
            int px = Math.max(GROUP_PX, g.categories().size() * perCategory);
            if (!Double.isNaN(c.reference())) {
                ValueMarker m = ChartStyle.marker(c, horizontal);
                if (!top) { // labelled once, in the top panel, above its first bar
                    m.setLabel(null);
                } else if (horizontal) {
                    panel.getDomainAxis().setLowerMargin(Math.min(0.5, MARKER_PX / (double) px));
                }
                panel.addRangeMarker(m);
            }
            if (top) { // the panels' legends are the same: show one
                plot.setFixedLegendItems(panel.getLegendItems());
            }
            plot.add(panel, px);
            height += px + 10;
        }
        JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        ChartStyle.finish(chart, points.series().size() > 1);
        if (!horizontal) {
            return new RenderedChart(chart, Charts.WIDTH, Charts.HEIGHT);
        }
        plot.setRangeAxisLocation(AxisLocation.TOP_OR_LEFT);
        chart.getLegend().setPosition(RectangleEdge.TOP);
        return new RenderedChart(chart, Charts.WIDTH, height);
    }

    /** @return the group's values, its categories in the group's order and every series in every panel */
    private static DefaultCategoryDataset dataset(ChartPoints points, CategoryGroups.Group g,
                                                  Map<String, String> labels) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        if (g.categories().isEmpty()) {
            return data;
        }
        for (String s : points.series()) { // each series keeps its place, so its colour, in every panel
            data.addValue(null, s, labels.get(g.categories().getFirst()));
        }
        for (String k : g.categories()) { // the categories in order before any value places them
            data.addValue(null, points.series().getFirst(), labels.get(k));
        }
        Set<String> in = new HashSet<>(g.categories());
        for (ChartPoints.Point p : points.points()) {
            if (in.contains(p.category()) && !Double.isInfinite(p.value())) {
                data.addValue(p.value(), p.series(), labels.get(p.category()));
            }
        }
        return data;
    }

    private static CategoryAxis categoryAxis(ChartSpec c, CategoryGroups.Group g, boolean horizontal) {
        CategoryAxis axis = new CategoryAxis(horizontal ? g.name() : c.xLabel());
        ChartStyle.fonts(axis);
        axis.setCategoryMargin(0.15);
        axis.setMaximumCategoryLabelLines(2);
        if (horizontal) {
            axis.setMaximumCategoryLabelWidthRatio(0.5f);
            axis.setLabelAngle(Math.PI / 2); // the application's name reads level, whatever its panel's height
        } else if (g.categories().size() > MAX_LEVEL_LABELS) {
            axis.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        }
        return axis;
    }

    /** @return each category's label: its name, marked where a value is infinite */
    private static Map<String, String> labels(ChartPoints points) {
        Map<String, String> labels = new HashMap<>();
        for (ChartPoints.Point p : points.points()) {
            labels.merge(p.category(), p.category() + (Double.isInfinite(p.value()) ? INFINITE : ""),
                    (a, b) -> a.endsWith(INFINITE) ? a : b);
        }
        return labels;
    }

    /** @return whether no category has two values: then one centred bar per category, not a slot per series */
    static boolean onePerCategory(ChartPoints points) {
        Set<String> seen = new HashSet<>();
        for (ChartPoints.Point p : points.points()) {
            if (!seen.add(p.category())) {
                return false;
            }
        }
        return true;
    }

    private static ValueAxis valueAxis(ChartPoints points, ChartSpec c) {
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (ChartPoints.Point p : points.points()) {
            if (p.value() > 0 && !Double.isInfinite(p.value())) {
                min = Math.min(min, p.value());
                max = Math.max(max, p.value());
            }
        }
        if (c.logY() && max > 0) {
            return ChartStyle.logAxis(c.yLabel(), 10, min, max, 0);
        }
        NumberAxis axis = new NumberAxis(c.yLabel());
        axis.setUpperMargin(0.1); // room for the values written beside horizontal bars
        ChartStyle.fonts(axis);
        return axis;
    }

    private static BarRenderer renderer(int series, boolean stacked, boolean horizontal) {
        BarRenderer r = stacked ? new StackedBarRenderer() : new BarRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        r.setItemMargin(0);
        r.setDrawBarOutline(false);
        for (int i = 0; i < series; i++) {
            r.setSeriesPaint(i, ChartStyle.paint(i));
        }
        if (horizontal && stacked) { // one bar a row: its value beside it, a zero visible as "0"
            r.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", VALUES));
            r.setDefaultItemLabelsVisible(true);
            r.setDefaultItemLabelFont(ChartStyle.TICKS);
            r.setDefaultPositiveItemLabelPosition(new ItemLabelPosition(ItemLabelAnchor.OUTSIDE3,
                    TextAnchor.CENTER_LEFT));
        }
        return r;
    }
}
