package org.jspin.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.jspin.nic.sim.experiment.ChartSpec;
import org.jspin.nic.sim.experiment.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CSV cells are locale-free and quoted where needed; a chart of a table is a PNG. */
class ReportWriterTest {
    @TempDir
    Path dir;

    @Test
    void csvWritesNumbersPlainlyEmptiesForNaNAndQuotesCommas() {
        Table t = Table.of(List.of("name", "gbps", "gbps_measured"), Set.of("gbps_measured"));
        t.add("a, b", 199.5, Double.NaN);
        t.add("c\"d", Double.POSITIVE_INFINITY, 1.0 / 3);
        assertEquals("name,gbps,gbps_measured\n\"a, b\",199.500,\n\"c\"\"d\",inf,0.333333\n", ReportWriter.csv(t));
    }

    @Test
    void aChartOfLinesAndOneOfBarsAreWritten() throws IOException {
        Table t = Table.of(List.of("x", "s", "y"), Set.of());
        t.add(1, "one", 2.0);
        t.add(2, "one", 3.0);
        t.add(2, "two", 5.0);
        Path lines = ReportWriter.chart(t, ChartSpec.lines("l", "lines", "x", "y", "s", "x (units)", "y (units)", true)
                .withReference(4, "a line"), "paper", dir);
        Path bars = ReportWriter.chart(t, ChartSpec.bars("b", "bars", "x", "y", "s", "x", "y", false), "paper", dir);
        for (Path p : List.of(lines, bars)) {
            byte[] b = Files.readAllBytes(p);
            assertTrue(b.length > 1000 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G', p.toString());
        }
    }
}
