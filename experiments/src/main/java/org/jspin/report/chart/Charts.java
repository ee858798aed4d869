package org.jspin.report.chart;

import org.jspin.nic.sim.experiment.ChartSpec;
import org.jspin.nic.sim.experiment.Table;

/** Draws a figure's table as its chart spec says: bars or lines. */
public final class Charts {
    static final int WIDTH = 1000;
    static final int HEIGHT = 620;

    private Charts() {
    }

    /** @return the chart of {@code t} drawn as {@code c} says, its title naming the timing {@code preset} */
    public static RenderedChart render(Table t, ChartSpec c, String preset) {
        String title = c.title() + "  [" + preset + " preset]";
        ChartPoints points = ChartPoints.of(t, c);
        return c.bars() ? BarCharts.render(points, c, title) : LineCharts.render(points, c, title);
    }
}
