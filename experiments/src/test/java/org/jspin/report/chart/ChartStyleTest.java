package org.jspin.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jfree.chart.axis.LogAxis;
import org.jspin.nic.sim.experiment.ChartSpec;
import org.junit.jupiter.api.Test;

class ChartStyleTest {
    @Test
    void theUnitIsWhatTheLabelEndsWithInParentheses() {
        assertEquals("Gbit/s", ChartStyle.unit("throughput (Gbit/s)"));
        assertEquals("commands", ChartStyle.unit("DMA writes (queued) (commands)"));
        assertEquals("", ChartStyle.unit("layout"));
        assertEquals("", ChartStyle.unit(null));
    }

    @Test
    void aLogAxisSpansWholePowersAndLabelsThemPlainly() {
        LogAxis axis = ChartStyle.logAxis("speedup (x)", 10, 0.68, 31.6, 0);
        assertEquals(0.1, axis.getLowerBound(), 0.001);
        assertEquals(100, axis.getUpperBound(), 0.3);
        assertEquals("0.1", axis.getNumberFormatOverride().format(0.1));
        assertEquals("1,000", axis.getNumberFormatOverride().format(1000));
        assertEquals(ChartStyle.TICKS, axis.getTickLabelFont());
        LogAxis one = ChartStyle.logAxis("reuses (messages)", 10, 1, 1, 0); // one value still gets a decade
        assertTrue(one.getLowerBound() < 1 && one.getUpperBound() >= 10, one.getRange().toString());
        LogAxis padded = ChartStyle.logAxis("P (HPUs)", 2, 1, 32, 0.1);
        assertEquals(Math.pow(2, -0.1), padded.getLowerBound(), 1e-9);
        assertEquals(32 * Math.pow(2, 0.1), padded.getUpperBound(), 1e-9);
    }

    @Test
    void theReferenceLineSaysItsValueAndUnit() {
        ChartSpec rate = ChartSpec.lines("f", "t", "x", "y", null, "x (B)", "throughput (Gbit/s)", false)
                .withReference(200, "line rate");
        assertEquals("line rate: 200 Gbit/s", ChartStyle.marker(rate, false).getLabel());
        ChartSpec even = ChartSpec.bars("f", "t", "x", "y", null, "x", "speedup (x)", true)
                .withReference(1, "break-even");
        assertEquals("break-even: 1x", ChartStyle.marker(even, true).getLabel());
    }
}
