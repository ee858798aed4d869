package org.jspin.nic.sim.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The figures over the application layouts, on a quick run (one layout of each application). */
class LayoutFiguresTest {
    private static final List<Layout> CASES = Layout.all(QuickSweeps.layouts(), true);

    @Test
    void speedupHasThreeStrategiesPerLayoutAndIsTheHostTimeOverTheNics() {
        try (QuickSweeps s = new QuickSweeps()) {
            Table t = new LayoutFigures(s.context).layoutSpeedup(CASES).table();
            assertEquals(3 * CASES.size(), t.rows().size());
            for (List<Object> r : t.rows()) {
                assertEquals(t.number(r, "host_model_ns") / t.number(r, "nic_ns"), t.number(r, "speedup_model"), 1e-9);
                assertEquals(t.number(r, "host_measured_ns") / t.number(r, "nic_ns"), t.number(r, "speedup_measured"),
                        1e-9);
            }
            assertTrue(((String) t.rows().getFirst().get(1)).startsWith("auto:"));
            assertTrue(s.onlyVerdict().claim().startsWith("2. "));
        }
    }

    @Test
    void memoryTrafficEndsWithTheGeometricMeanOfTheRatios() {
        try (QuickSweeps s = new QuickSweeps()) {
            Table t = new LayoutFigures(s.context).memoryTraffic(CASES).table();
            List<List<Object>> layouts = t.rows().subList(0, t.rows().size() - 1);
            double logSum = 0;
            for (List<Object> r : layouts) {
                assertEquals(t.number(r, "host_bytes") / t.number(r, "nic_bytes"), t.number(r, "ratio"), 1e-12);
                logSum += Math.log(t.number(r, "ratio"));
            }
            List<Object> mean = t.rows().getLast();
            assertEquals("geometric mean", mean.get(0));
            assertEquals(Math.exp(logSum / layouts.size()), t.number(mean, "ratio"), 1e-12);
            assertTrue(s.onlyVerdict().claim().startsWith("3. "));
        }
    }

    @Test
    void checkpointsPayForThemselvesInFewerThanFourReusesOnTheQuickLayouts() {
        try (QuickSweeps s = new QuickSweeps()) {
            Table t = new LayoutFigures(s.context).checkpointReuse(CASES).table();
            assertTrue(!t.rows().isEmpty() && t.rows().size() <= CASES.size());
            assertTrue(t.rows().stream().allMatch(r -> t.number(r, "reuses") < 4));
            assertEquals("reproduced", s.onlyVerdict().verdict());
        }
    }

    @Test
    void seekAndRwCpComeInPairsPerLayout() {
        try (QuickSweeps s = new QuickSweeps()) {
            Table t = new LayoutFigures(s.context).seekAgainstRwCp(CASES).table();
            assertTrue(!t.rows().isEmpty() && t.rows().size() % 2 == 0);
            for (int i = 0; i < t.rows().size(); i += 2) {
                assertEquals(t.rows().get(i).get(0), t.rows().get(i + 1).get(0));
                assertEquals(List.of("rw-cp", "seek"), List.of(t.rows().get(i).get(1), t.rows().get(i + 1).get(1)));
            }
            assertTrue(s.onlyVerdict().evidence().contains("of " + t.rows().size() / 2 + " layouts"));
        }
    }
}
