package org.jspin.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Set;

import org.jspin.nic.sim.experiment.ChartSpec;
import org.jspin.nic.sim.experiment.Table;
import org.junit.jupiter.api.Test;

class ChartPointsTest {
    private static Table table() {
        Table t = Table.of(List.of("parameter", "value", "block_bytes", "strategy", "gbps", "gbps_measured"),
                Set.of("gbps_measured"));
        t.add("latency", 1.0, 64, "rw-cp", 100.0, Double.NaN);
        t.add("latency", 2.0, 128, "rw-cp", 90.0, Double.NaN);
        t.add("banks", 4.0, 64, "rw-cp", 50.0, Double.NaN);
        t.add("latency", 4.0, 64, "host (measured)", Double.NaN, 20.0);
        t.add("latency", 8.0, 64, "host", Double.NaN, Double.NaN);
        return t;
    }

    private static ChartSpec spec() {
        return ChartSpec.lines("f", "t", "value", "gbps", "strategy", "v (cycles)", "gbps (Gbit/s)", true);
    }

    @Test
    void rowsAreSelectedAndSeriesNamedFromTheirColumns() {
        ChartPoints p = ChartPoints.of(table(), spec().where("parameter", "latency")
                .seriesNamed("{strategy}, {block_bytes} B"));
        assertEquals(List.of("rw-cp, 64 B", "rw-cp, 128 B", "host (measured), 64 B"), p.series());
        assertEquals(new ChartPoints.Point("rw-cp, 128 B", "2", 2.0, 90.0), p.points().get(1));
    }

    @Test
    void aMeasuredTwinFillsAnEmptyYAndIsMarkedOnce() {
        ChartPoints p = ChartPoints.of(table(), spec());
        assertEquals(List.of("rw-cp", "host (measured)"), p.series());
        assertEquals(4, p.points().size()); // the row with neither value is left out
        Table t = Table.of(List.of("x", "gbps", "gbps_measured"), Set.of("gbps_measured"));
        t.add("a", Double.NaN, 3.0);
        t.add("b", 4.0, Double.NaN);
        assertEquals(List.of("measured on this machine", "simulated or modelled"),
                ChartPoints.of(t, ChartSpec.bars("f", "t", "x", "gbps", null, "x", "y (u)", false)).series());
        Table s = Table.of(List.of("x", "s", "gbps", "gbps_measured"), Set.of("gbps_measured"));
        s.add("a", "host", Double.NaN, 3.0);
        assertEquals(List.of("host (measured)"),
                ChartPoints.of(s, ChartSpec.bars("f", "t", "x", "gbps", "s", "x", "y (u)", false)).series());
    }

    @Test
    void severalYColumnsAreOneSeriesEach() {
        Table t = Table.of(List.of("bytes", "portals_ns", "spin_ns"), Set.of());
        t.add(1, 200.0, 300.0);
        ChartPoints p = ChartPoints.of(t, ChartSpec.bars("f", "t", "bytes", "spin_ns", null, "size (bytes)",
                "latency (ns)", false).yColumns(List.of("portals_ns", "spin_ns"), List.of("Portals", "sPIN")));
        assertEquals(List.of(new ChartPoints.Point("Portals", "1", 1, 200.0),
                new ChartPoints.Point("sPIN", "1", 1, 300.0)), p.points());
        assertThrows(IllegalArgumentException.class, () -> ChartSpec.bars("f", "t", "bytes", "spin_ns", null, "x",
                "y", false).yColumns(List.of("a", "b"), List.of("A")));
    }

    @Test
    void numbersReadAsAPersonWritesThem() {
        assertEquals("250", ChartPoints.text(250.0));
        assertEquals("0.5000", ChartPoints.text(0.5));
        assertEquals("1.235e+07", ChartPoints.text(12345678.9));
        assertEquals("64", ChartPoints.text(64));
    }
}
