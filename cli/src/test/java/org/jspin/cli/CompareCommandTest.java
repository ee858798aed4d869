package org.jspin.cli;

import static org.jspin.cli.InProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jspin compare} and {@code jspin demo} with real processes: every backend runs, the table has a
 * row each with measured and simulated columns labelled, the files are written, and the verdict says
 * what offload would buy.
 */
class CompareCommandTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void compareRunsTheHostThenEachStrategyAndWritesTheTable() throws IOException {
        InProcess.Run r = run("compare", "halo2d", "-n", "2", "--size", "64", "--iterations", "10", "--strategies",
                "auto,rw-cp", "--out", dir.toString());
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("[1/3]") && r.out().contains("[3/3]"), "a progress line per run\n" + r.out());
        assertTrue(r.out().contains("(measured)") && r.out().contains("(sim.)"), "columns labelled\n" + r.out());
        for (String backend : List.of("host ", "sim/auto ", "sim/rw-cp ")) {
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith(backend)), backend + " row\n" + r.out());
        }
        assertTrue(r.out().contains("faster than the host") && r.out().contains("main-memory traffic"), r.out());
        List<String> csv = Files.readAllLines(dir.resolve("compare-halo2d.csv"));
        assertEquals(4, csv.size(), csv.toString());
        assertTrue(csv.getFirst().contains("us_per_iteration_measured") && csv.getFirst().contains("_simulated"));
        assertTrue(Files.size(dir.resolve("compare-halo2d-traffic.png")) > 1000);
        assertTrue(Files.size(dir.resolve("compare-halo2d-time.png")) > 1000);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theDemoComparesBothBackendsAndEndsWithAVerdict() {
        InProcess.Run r = run("demo", "-n", "4", "--size", "64", "--iterations", "10");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("bit-identical"), r.out());
        String last = r.out().strip().lines().reduce((a, b) -> b).orElse("");
        assertTrue(last.startsWith("sim/auto would have the halos it received in place"), last);
    }

    @Test
    void anUnknownExampleOrStrategyIsRefusedBeforeAnythingRuns() {
        InProcess.Run r = run("compare", "halo9d");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("halo9d"), r.err());
        InProcess.Run s = run("compare", "halo2d", "--strategies", "fastest");
        assertEquals(2, s.status());
        assertTrue(s.err().contains("fastest"), s.err());
    }
}
