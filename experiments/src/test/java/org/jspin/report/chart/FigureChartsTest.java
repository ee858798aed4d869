package org.jspin.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedRangeCategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.CategoryDataset;
import org.jspin.nic.sim.experiment.ChartSpec;
import org.jspin.nic.sim.experiment.ChartSpec.Arrangement;
import org.jspin.nic.sim.experiment.Figure;
import org.jspin.nic.sim.experiment.Figures;
import org.jspin.nic.sim.experiment.QuickFigures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every chart of a quick run of the figures is one a person can read. */
class FigureChartsTest {
    private static Figures.Result result;

    @BeforeAll
    static void run() {
        result = QuickFigures.result();
    }

    @Test
    void everyValueAxisAndNumericXAxisNamesItsUnit() {
        for (Figure f : result.figures()) {
            for (ChartSpec c : f.charts()) {
                assertFalse(ChartStyle.unit(c.yLabel()).isEmpty(), c.file() + ": " + c.yLabel());
                if (!c.bars()) {
                    assertFalse(ChartStyle.unit(c.xLabel()).isEmpty(), c.file() + ": " + c.xLabel());
                }
                assertFalse(ChartPoints.of(f.table(), c).points().isEmpty(), c.file() + " draws nothing");
            }
        }
    }

    @Test
    void manyCategoriesLieHorizontallyWithRoomForEveryLabel() {
        for (Figure f : result.figures()) {
            for (ChartSpec c : f.charts()) {
                if (!c.bars()) {
                    continue;
                }
                RenderedChart r = Charts.render(f.table(), c, "paper");
                CombinedRangeCategoryPlot plot = (CombinedRangeCategoryPlot) r.chart().getPlot();
                int categories = 0;
                for (Object p : plot.getSubplots()) {
                    categories += ((CategoryPlot) p).getDataset().getColumnCount();
                }
                if (categories > BarCharts.MAX_LEVEL_LABELS) {
                    assertEquals(PlotOrientation.HORIZONTAL, plot.getOrientation(), c.file());
                    assertTrue(r.height() >= categories * BarCharts.CATEGORY_PX, c.file() + ": " + r.height());
                }
            }
        }
    }

    @Test
    void fig16IsGroupedByApplicationAndSortedBySpeedupAgainstBreakEven() {
        Figure f = result.figures().stream().filter(x -> x.id().equals("fig16-layout-speedup")).findFirst()
                .orElseThrow();
        ChartSpec c = f.charts().getFirst();
        assertEquals(Arrangement.GROUPED, c.layout());
        assertTrue(c.logY());
        assertEquals(1.0, c.reference());
        CombinedRangeCategoryPlot plot = (CombinedRangeCategoryPlot) Charts.render(f.table(), c, "paper").chart()
                .getPlot();
        List<String> applications = new ArrayList<>();
        for (Object p : plot.getSubplots()) {
            CategoryPlot panel = (CategoryPlot) p;
            applications.add(panel.getDomainAxis().getLabel());
            CategoryDataset d = panel.getDataset();
            double previous = Double.POSITIVE_INFINITY;
            for (int col = 0; col < d.getColumnCount(); col++) {
                String layout = d.getColumnKey(col).toString();
                assertEquals(applications.getLast(), CategoryGroups.application(layout));
                double best = 0;
                for (int row = 0; row < d.getRowCount(); row++) {
                    Number v = d.getValue(row, col);
                    best = v == null ? best : Math.max(best, v.doubleValue());
                }
                assertTrue(best <= previous, layout + " (" + best + ") after " + previous);
                previous = best;
            }
        }
        assertEquals(applications.stream().distinct().toList(), applications);
        assertTrue(applications.size() > 1, applications.toString());
    }
}
