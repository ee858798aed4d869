package org.jspin.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.SeriesRenderingOrder;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jspin.nic.sim.experiment.ChartSpec;
import org.jspin.nic.sim.experiment.ChartSpec.Arrangement;
import org.jspin.nic.sim.experiment.Table;
import org.junit.jupiter.api.Test;

class LineChartsTest {
    private static Table queue(int points) {
        Table t = Table.of(List.of("strategy", "time_ns", "occupancy"), Set.of());
        for (int i = 0; i < points; i++) {
            t.add("rw-cp", (double) i, 100.0 - i % 3);
            t.add("seek", (double) i, 4.0 - i % 2);
        }
        return t;
    }

    private static ChartSpec spec() {
        return ChartSpec.lines("f", "queue", "time_ns", "occupancy", "strategy", "time (ns)", "queued (commands)",
                false);
    }

    @Test
    void oneSeriesPerPanelSharesTheTimeAxis() {
        RenderedChart r = Charts.render(queue(100), spec().laidOut(Arrangement.PANELS), "paper");
        CombinedDomainXYPlot plot = assertInstanceOf(CombinedDomainXYPlot.class, r.chart().getPlot());
        List<XYPlot> panels = plot.getSubplots();
        assertEquals(List.of("rw-cp", "seek"), panels.stream().map(p -> p.getRangeAxis().getLabel()).toList());
        assertTrue(r.height() >= 2 * LineCharts.PANEL_PX);
        assertFalse(r.chart().getLegend().isVisible()); // the panels' axes name the series
        assertTrue(r.chart().getSubtitleCount() > 1); // the quantity, said once under the title
    }

    @Test
    void shapesOnlyWhereThePointsAreFew() {
        XYPlot dense = (XYPlot) ((CombinedDomainXYPlot) Charts.render(queue(LineCharts.MAX_SHAPES + 1), spec(),
                "paper").chart().getPlot()).getSubplots().getFirst();
        XYPlot sparse = (XYPlot) ((CombinedDomainXYPlot) Charts.render(queue(8), spec(), "paper").chart().getPlot())
                .getSubplots().getFirst();
        assertFalse(((XYLineAndShapeRenderer) dense.getRenderer()).getSeriesShapesVisible(0));
        assertTrue(((XYLineAndShapeRenderer) sparse.getRenderer()).getSeriesShapesVisible(0));
        assertEquals(SeriesRenderingOrder.FORWARD, sparse.getSeriesRenderingOrder());
        assertTrue(Charts.render(queue(8), spec(), "paper").chart().getLegend().isVisible());
    }

    @Test
    void aLogXAxisReachesPastItsEndPoints() {
        Table t = Table.of(List.of("hpus", "blocks"), Set.of());
        t.add(1, 10.0);
        t.add(32, 2000.0);
        RenderedChart r = Charts.render(t, ChartSpec.lines("f", "t", "hpus", "blocks", null, "HPUs (P)",
                "catch-up (blocks)", true), "paper");
        LogAxis x = assertInstanceOf(LogAxis.class, ((CombinedDomainXYPlot) r.chart().getPlot()).getDomainAxis());
        assertTrue(x.getLowerBound() < 1 && x.getUpperBound() > 32, x.getRange().toString());
        assertEquals("32", x.getNumberFormatOverride().format(32));
        assertFalse(r.chart().getLegend().isVisible());
    }
}
