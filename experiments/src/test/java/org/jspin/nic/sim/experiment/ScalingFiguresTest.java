package org.jspin.nic.sim.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.jspin.examples.fft2d.Fft2d;
import org.jspin.report.ReportWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scaling sweep on a tiny fft2d (2 and 4 ranks, N = 16): its columns, both NICs, what holds by construction. */
class ScalingFiguresTest {
    private static final IterationTrace.Program FFT2D =
            (r, o, n, i) -> Fft2d.runLocal(r, o, new Fft2d.Params(n, i, false));

    @Test
    void everyPointHasBothNicsWithTheSameMeasuredComputeAndOnlyTheHostPacks() {
        try (QuickSweeps s = new QuickSweeps()) {
            ScalingFigures f = new ScalingFigures(s.context);
            ScalingSweep sc = f.scaling(FFT2D, List.of(16), List.of(2, 4), 5);
            Table t = sc.table();
            assertEquals(List.of("size", "nodes", "nic", "runtime_us_measured", "compute_us_measured", "cpu_pack_us",
                    "nic_us", "reduction_pct_measured"), t.columns());
            assertEquals(4, t.rows().size());
            assertTrue(t.measured().stream().allMatch(c -> c.contains("measured")));
            for (int nodes : List.of(2, 4)) {
                List<List<Object>> rows = t.where("nodes", nodes);
                assertEquals(List.of("host", "sim"),
                        rows.stream().map(r -> ((String) r.get(2)).split(":")[0]).toList());
                List<Object> host = rows.get(0);
                List<Object> sim = rows.get(1);
                // each row's parts are its slowest rank's in its median iteration (which may differ by NIC): they fit in it
                for (List<Object> row : rows) {
                    assertTrue(t.number(row, "compute_us_measured") > 0, row.toString());
                    assertTrue(t.number(row, "compute_us_measured") + t.number(row, "cpu_pack_us")
                            <= t.number(row, "runtime_us_measured") + 1e-9, row.toString());
                }
                assertEquals(0, t.number(sim, "cpu_pack_us"), "a sPIN NIC leaves the CPU free");
                assertEquals(0, t.number(host, "nic_us"), "a host NIC runs no handlers");
                assertTrue(t.number(host, "cpu_pack_us") > 0, "the transpose's receive type is not contiguous");
                assertEquals(0, t.number(host, "reduction_pct_measured"), 1e-9);
                assertEquals(ScalingFigures.reductionPct(t.number(host, "runtime_us_measured"),
                        t.number(sim, "runtime_us_measured")), t.number(sim, "reduction_pct_measured"), 1e-9);
            }
            String evidence = sc.evidence("fig-test");
            assertTrue(evidence.contains("At 4 nodes: N = 16:"), evidence);
            assertTrue(evidence.contains("with o = 150 ns"), evidence);
            assertTrue(evidence.contains("The host's time at N = 16 is "), evidence);
            assertTrue(sc.verdict().startsWith("not judged: a quick run stops at 4 nodes"), sc.verdict());
            Figure fig = sc.figure("fig-test", "fft2d", "title", "what.");
            assertEquals(List.of("fig-test-n16"), fig.charts().stream().map(ChartSpec::file).toList());
            boolean positive = t.rows().stream().allMatch(r -> t.number(r, "runtime_us_measured") > 0);
            assertEquals(positive, fig.charts().getFirst().logY(), "log y only where every point can be drawn");
            assertTrue(fig.charts().getFirst().logX());
            assertTrue(fig.notes().contains("for 5 iterations"), fig.notes());
        }
    }

    @Test
    void reductionIsTheShareOfTheHostsTimeSaved() {
        assertEquals(25, ScalingFigures.reductionPct(200, 150), 1e-12);
        assertEquals(-50, ScalingFigures.reductionPct(100, 150), 1e-12);
        assertEquals(0, ScalingFigures.reductionPct(0, 10), 1e-12);
    }

    @Test
    void theFft2dFigureJudgesClaimSevenInTheReport(@TempDir Path tmp) throws IOException {
        try (QuickSweeps s = new QuickSweeps()) {
            Figure f = new ScalingFigures(s.context).fft2d();
            assertEquals("fig-fft2d-scaling", f.id());
            assertEquals(2 * 4, f.table().rows().size());
            Verdict v = s.onlyVerdict();
            assertEquals(ScalingFigures.CLAIM_7, v.claim());
            assertTrue(v.verdict().startsWith("not judged: a quick run stops at 16 nodes"), v.verdict());
            assertTrue(v.evidence().startsWith("fig-fft2d-scaling"), v.evidence());
            ReportWriter.write(new Figures.Result(List.of(f), List.of(v), 0, 0, 0, "paper"), Map.of(), tmp);
            String report = Files.readString(tmp.resolve("REPORT.md"));
            assertTrue(report.contains("| " + ScalingFigures.CLAIM_7 + " | not judged"), report);
            assertTrue(Files.exists(tmp.resolve("fig-fft2d-scaling.csv")));
            assertTrue(Files.exists(tmp.resolve("fig-fft2d-scaling-n256.png")));
        }
    }
}
