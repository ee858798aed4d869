package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.jspin.nic.sim.experiment.Table;
import org.jspin.replay.report.IterationTime;
import org.junit.jupiter.api.Test;

/** The projection behind demo's and compare's headline, on thread ranks and by hand. */
class ProjectionTest {
    @Test
    void aHaloOnThreadRanksIsProjectedOnEachNicWithOnlyTheHostPacking() {
        Projection p = new Projection(List.of("auto"));
        // 4 ranks: a 2 x 2 grid, so the column halos are vectors the host packs and the NIC scatters
        Projection.Point point = p.onThreads("halo2d", List.of("--size", "64", "--iterations", "5"), 4);
        assertNull(point.failure());
        assertEquals(List.of("host", "sim:auto"), point.times().stream().map(IterationTime::nic).toList());
        IterationTime host = point.times().get(0);
        IterationTime sim = point.times().get(1);
        assertEquals(5, host.iterations());
        assertTrue(host.cpuPackNs() > 0, host.toString());
        assertEquals(0, sim.cpuPackNs(), sim.toString());
        assertTrue(sim.nicNs() > 0, sim.toString());
        assertEquals(0, host.nicNs());
        for (IterationTime t : point.times()) {
            assertTrue(t.computeNs() > 0 && t.computeNs() + t.cpuPackNs() <= t.medianNs(), t.toString());
        }
    }

    @Test
    void aSizeTheExampleRefusesAtThatManyRanksIsAPointWithItsReason() {
        Projection p = new Projection(List.of("auto"));
        Projection.Point point = p.onThreads("fft2d", List.of("--size", "12", "--iterations", "2"), 8);
        assertTrue(point.times().isEmpty());
        assertTrue(point.failure() != null && point.failure().contains("12"), point.failure());
        String headline = p.headline(List.of(point));
        assertTrue(headline.contains("  8 nodes (8 thread ranks traced): not projected: "), headline);
    }

    @Test
    void theHeadlineSaysHowMuchShorterOrLongerEachNicIsThanTheHost() {
        Projection p = new Projection(List.of("auto", "rw-cp"));
        Projection.Point point = new Projection.Point(64, "64 thread ranks traced", List.of(
                new IterationTime("host", 20, 100_000, 101_000, 60_000, 20_000, 0),
                new IterationTime("sim:auto", 20, 80_000, 81_000, 60_000, 0, 5_000),
                new IterationTime("sim:rw-cp", 20, 125_000, 126_000, 60_000, 0, 50_000)), null);
        String headline = p.headline(List.of(point));
        assertTrue(headline.startsWith("Projected time per iteration (simulated: a LogGOPS replay of each trace, "
                + p.network()), headline);
        assertTrue(headline.contains(" 64 nodes (64 thread ranks traced): host 100.0 us, sim:auto 80.0 us (20.0%"
                + " shorter), sim:rw-cp 125.0 us (25.0% longer)"), headline);
        Table t = Projection.table(List.of(point));
        assertEquals(3, t.rows().size());
        assertEquals(-25.0, t.number(t.rows().get(2), "reduction_pct_measured"), 1e-9);
        assertEquals(20.0, t.number(t.rows().get(0), "cpu_pack_us"), 1e-9);
    }
}
