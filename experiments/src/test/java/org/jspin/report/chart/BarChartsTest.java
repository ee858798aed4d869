package org.jspin.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedRangeCategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jspin.nic.sim.experiment.ChartSpec;
import org.jspin.nic.sim.experiment.ChartSpec.Arrangement;
import org.jspin.nic.sim.experiment.Table;
import org.junit.jupiter.api.Test;

class BarChartsTest {
    private static Table layouts(int perApplication) {
        Table t = Table.of(List.of("layout", "strategy", "speedup"), Set.of());
        for (int i = 0; i < perApplication; i++) {
            for (String app : List.of("nas", "wrf")) {
                t.add(app + "_" + i, "auto", 0.5 + i);
                t.add(app + "_" + i, "seek", 0.25 + i);
            }
        }
        return t;
    }

    private static ChartSpec speedup() {
        return ChartSpec.bars("f", "speedup", "layout", "speedup", "strategy", "layout", "speedup (x)", true)
                .laidOut(Arrangement.GROUPED).withReference(1, "break-even");
    }

    @Test
    void groupedBarsLieInAPanelPerApplicationLargestFirst() {
        RenderedChart r = Charts.render(layouts(3), speedup(), "paper");
        CombinedRangeCategoryPlot plot = assertInstanceOf(CombinedRangeCategoryPlot.class, r.chart().getPlot());
        assertEquals(PlotOrientation.HORIZONTAL, plot.getOrientation());
        List<CategoryPlot> panels = plot.getSubplots();
        assertEquals(List.of("nas", "wrf"), panels.stream().map(p -> p.getDomainAxis().getLabel()).toList());
        assertEquals(List.of("nas_2", "nas_1", "nas_0"), panels.get(0).getDataset().getColumnKeys());
        assertEquals(List.of("auto", "seek"), panels.get(1).getDataset().getRowKeys());
        assertEquals(0.25, panels.get(1).getDataset().getValue("seek", "wrf_0").doubleValue());
        LogAxis values = assertInstanceOf(LogAxis.class, plot.getRangeAxis());
        assertTrue(values.getLowerBound() <= 0.25 && values.getUpperBound() >= 2.5, values.getRange().toString());
        ValueMarker top = (ValueMarker) panels.get(0).getRangeMarkers(org.jfree.chart.ui.Layer.FOREGROUND)
                .iterator().next();
        ValueMarker second = (ValueMarker) panels.get(1).getRangeMarkers(org.jfree.chart.ui.Layer.FOREGROUND)
                .iterator().next();
        assertEquals("break-even: 1x", top.getLabel());
        assertNull(second.getLabel()); // one label, not one per panel
        assertTrue(r.chart().getLegend().isVisible());
    }

    @Test
    void aHorizontalChartGrowsWithItsCategories() {
        int few = Charts.render(layouts(3), speedup(), "paper").height();
        int many = Charts.render(layouts(40), speedup(), "paper").height();
        assertTrue(many >= 80 * BarCharts.CATEGORY_PX, "80 categories in " + many + " px");
        assertTrue(many > few);
        assertEquals(Charts.HEIGHT, Charts.render(layouts(40), speedup().laidOut(Arrangement.VERTICAL), "paper")
                .height());
    }

    @Test
    void oneValuePerCategoryIsOneCentredBarWithItsValueBesideIt() {
        Table t = Table.of(List.of("layout", "reuses"), Set.of());
        t.add("nas_a", 1.0);
        t.add("nas_b", 0.0);
        t.add("nas_c", Double.POSITIVE_INFINITY);
        RenderedChart r = Charts.render(t, ChartSpec.bars("f", "reuses", "layout", "reuses", null, "layout",
                "reuses (messages)", false).laidOut(Arrangement.HORIZONTAL), "paper");
        CategoryPlot panel = (CategoryPlot) ((CombinedRangeCategoryPlot) r.chart().getPlot()).getSubplots().getFirst();
        assertInstanceOf(StackedBarRenderer.class, panel.getRenderer());
        assertTrue(panel.getRenderer().getDefaultItemLabelsVisible());
        assertEquals(List.of("nas_c" + BarCharts.INFINITE, "nas_a", "nas_b"), panel.getDataset().getColumnKeys());
        assertFalse(r.chart().getLegend().isVisible()); // one series: the axis says what it is
    }

    @Test
    void aTableWithNothingToDrawGivesAnEmptyChart() {
        Table t = Table.of(List.of("layout", "reuses"), Set.of());
        t.add("nas_a", Double.NaN);
        for (Arrangement a : List.of(Arrangement.VERTICAL, Arrangement.GROUPED)) {
            RenderedChart r = Charts.render(t, ChartSpec.bars("f", "t", "layout", "reuses", null, "layout",
                    "reuses (messages)", false).laidOut(a), "paper");
            assertEquals(0, ((CategoryPlot) ((CombinedRangeCategoryPlot) r.chart().getPlot()).getSubplots()
                    .getFirst()).getDataset().getColumnCount());
        }
    }

    @Test
    void fewVerticalCategoriesKeepTheirLabelsLevel() {
        Table t = Table.of(List.of("backend", "bytes"), Set.of());
        t.add("host", 3.0);
        t.add("sim/auto", 4.0);
        RenderedChart r = Charts.render(t, ChartSpec.bars("f", "t", "backend", "bytes", null, "backend",
                "traffic (bytes)", false), "paper");
        CategoryPlot panel = (CategoryPlot) ((CombinedRangeCategoryPlot) r.chart().getPlot()).getSubplots().getFirst();
        assertEquals(PlotOrientation.VERTICAL, ((CombinedRangeCategoryPlot) r.chart().getPlot()).getOrientation());
        assertEquals(0.0, panel.getDomainAxis().getCategoryLabelPositions().getLabelPosition(
                org.jfree.chart.ui.RectangleEdge.BOTTOM).getAngle());
        assertEquals(Charts.WIDTH, r.width());
    }
}
