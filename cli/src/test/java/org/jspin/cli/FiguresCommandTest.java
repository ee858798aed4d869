package org.jspin.cli;

import static org.jspin.cli.InProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jspin figures --quick}: it writes every figure's CSV and PNG and REPORT.md, and the CSVs have
 * the shape and the trends the model implies.
 */
class FiguresCommandTest {
    @TempDir
    static Path dir;

    private static InProcess.Run result;

    @BeforeAll
    static void runOnce() {
        result = run("figures", "--quick", "--out", dir.toString());
    }

    /** @return the rows of a CSV, each a map from column to cell */
    private static List<Map<String, String>> csv(String name) throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve(name + ".csv"));
        String[] head = lines.getFirst().split(",");
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            assertEquals(head.length, cells.length, name + ": " + line);
            Map<String, String> row = new TreeMap<>();
            for (int i = 0; i < head.length; i++) {
                row.put(head[i], cells[i]);
            }
            rows.add(row);
        }
        return rows;
    }

    @Test
    void everyFigureHasItsDataItsPlotAndTheReportHasAVerdictPerClaim() throws IOException {
        assertEquals(0, result.status(), result.err());
        for (String f : List.of("fig02-put-latency", "fig08-vector-throughput", "fig14-dma-queue", "fig16-layout-speedup",
                "fig17-memory-traffic", "fig18-checkpoint-reuse", "fig-referee-memory", "fig-referee-host",
                "fig-referee-iovec", "fig-settle", "fig-ooo", "fig-seek", "fig-hpu-local")) {
            assertTrue(Files.size(dir.resolve(f + ".csv")) > 0, f);
        }
        for (String png : List.of("fig08-vector-throughput", "fig16-layout-speedup", "fig-referee-memory-latency")) {
            byte[] head = Files.readAllBytes(dir.resolve(png + ".png"));
            assertTrue(head.length > 1000 && head[1] == 'P' && head[2] == 'N' && head[3] == 'G', png);
        }
        String report = Files.readString(dir.resolve("REPORT.md"));
        for (int claim = 1; claim <= 7; claim++) {
            assertTrue(report.contains("| " + claim + ". "), "claim " + claim + " has a verdict");
        }
        assertTrue(report.contains("Referee 1.") && report.contains("Referee 2.") && report.contains("Referee 3."));
        assertTrue(report.contains("memory-latency") && report.contains("PsPIN"), "the parameters and their sources");
    }

    @Test
    void specializedThroughputDoesNotFallAsBlocksGrowAndNeverPassesTheLine() throws IOException {
        double last = 0;
        for (Map<String, String> row : csv("fig08-vector-throughput")) {
            if (row.get("series").equals("specialized")) {
                double g = Double.parseDouble(row.get("gbps"));
                assertTrue(g >= last * 0.999, "non-decreasing at " + row);
                assertTrue(g <= 200.0001, "at most the line rate: " + row);
                last = g;
            }
        }
        assertTrue(last > 190, "large blocks at line rate");
    }

    @Test
    void hpuLocalCatchUpGrowsWithTheHpus() throws IOException {
        long last = -1;
        for (Map<String, String> row : csv("fig-hpu-local")) {
            long c = Long.parseLong(row.get("catch_up_blocks"));
            assertTrue(c > last, "grows with P: " + row);
            last = c;
        }
    }

    @Test
    void theHostPathNeverMovesLessMemoryThanTheNic() throws IOException {
        List<Map<String, String>> rows = csv("fig17-memory-traffic");
        assertFalse(rows.isEmpty());
        for (Map<String, String> row : rows) {
            assertTrue(Double.parseDouble(row.get("ratio")) >= 1, row.toString());
        }
    }
}
