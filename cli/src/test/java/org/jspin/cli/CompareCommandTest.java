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
 * {@code jspin compare} with real processes (README's commands run {@code jspin demo}, and
 * ReadmeCommandsTest checks what it says): every backend runs, the table has a
 * row each with measured and simulated columns labelled, the files are written, and the headline gives
 * the projected time per iteration at the run's ranks and at {@code --nodes}.
 */
class CompareCommandTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void compareRunsTheHostThenEachStrategyAndWritesTheTable() throws IOException {
        InProcess.Run r = run("compare", "halo2d", "-n", "2", "--size", "64", "--iterations", "10", "--strategies",
                "auto,rw-cp", "--nodes", "8", "--out", dir.toString());
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("[1/3]") && r.out().contains("[3/3]"), "a progress line per run\n" + r.out());
        assertTrue(r.out().contains("(measured)") && r.out().contains("(sim.)"), "columns labelled\n" + r.out());
        for (String backend : List.of("host ", "sim/auto ", "sim/rw-cp ")) {
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith(backend)), backend + " row\n" + r.out());
        }
        List<String> headline = r.out().lines().dropWhile(l -> !l.startsWith("Projected time per iteration")).limit(3)
                .toList();
        assertEquals(3, headline.size(), "the headline, then a line per point\n" + r.out());
        assertTrue(headline.get(1).matches(" +2 nodes \\(this run's trace\\): host [0-9.,]+ us, sim:auto [0-9.,]+ us"
                + " \\([0-9.]+% (shorter|longer)\\), sim:rw-cp .*"), headline.get(1));
        assertTrue(headline.get(2).startsWith("  8 nodes (8 thread ranks traced): host "), headline.get(2));
        List<String> csv = Files.readAllLines(dir.resolve("compare-halo2d.csv"));
        assertEquals(4, csv.size(), csv.toString());
        assertTrue(csv.getFirst().contains("us_per_iteration_measured") && csv.getFirst().contains("_simulated"));
        List<String> projected = Files.readAllLines(dir.resolve("compare-halo2d-projected.csv"));
        assertEquals(7, projected.size(), "two points of three NICs\n" + projected);
        for (String png : List.of("traffic", "time", "projected")) {
            assertTrue(Files.size(dir.resolve("compare-halo2d-" + png + ".png")) > 1000, png);
        }
    }

    @Test
    void anUnknownExampleOrStrategyIsRefusedBeforeAnythingRuns() {
        InProcess.Run r = run("compare", "halo9d");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("halo9d"), r.err());
        InProcess.Run s = run("compare", "halo2d", "--strategies", "fastest");
        assertEquals(2, s.status());
        assertTrue(s.err().contains("fastest"), s.err());
        InProcess.Run n = run("compare", "halo2d", "--nodes", "0");
        assertEquals(2, n.status());
        assertTrue(n.err().contains("--nodes 0"), n.err());
    }
}
