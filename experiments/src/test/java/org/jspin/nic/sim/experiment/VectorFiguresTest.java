package org.jspin.nic.sim.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspin.nic.sim.config.TimingParam;
import org.junit.jupiter.api.Test;

/** The paper's vector figures, on a quick run of the paper preset. */
class VectorFiguresTest {
    @Test
    void throughputHasEveryStrategyAndTheHostPerBlockAndTheSpecialisedHandlerAtLineRateFrom64Bytes() {
        try (QuickSweeps s = new QuickSweeps()) {
            VectorFigures figures = new VectorFigures(s.context);
            Figure f = figures.vectorThroughput();
            assertEquals("fig08-vector-throughput", f.id());
            Table t = f.table();
            assertEquals(4 * 8, t.rows().size());
            double at64 = t.number(t.rows().stream().filter(r -> r.get(0).equals(64L) && r.get(1).equals("specialized"))
                    .findFirst().orElseThrow(), "gbps");
            assertTrue(at64 >= 0.95 * figures.lineRate(), at64 + " Gbit/s");
            assertEquals(4, t.where("series", "host (measured 1 thread)").size());
            assertTrue(s.onlyVerdict().claim().startsWith("1. "));
        }
    }

    @Test
    void nonDecreasingForgivesATenthOfAPerMille() {
        assertTrue(VectorFigures.nonDecreasing(series(1, 2, 2, 3)));
        assertTrue(VectorFigures.nonDecreasing(series(100, 99.95)));
        assertFalse(VectorFigures.nonDecreasing(series(100, 99.8)));
    }

    private static Map<Long, Double> series(double... values) {
        Map<Long, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            m.put((long) i, values[i]);
        }
        return m;
    }

    @Test
    void theDmaQueueStaysUnderItsBoundForEveryStrategy() {
        try (QuickSweeps s = new QuickSweeps()) {
            Table t = new VectorFigures(s.context).dmaQueue().table();
            long bound = s.context.base().hpus() * (long) s.context.base().timing().get(TimingParam.DMA_OUTSTANDING);
            for (String strategy : List.of("specialized", "hpu-local", "ro-cp", "rw-cp", "iovec", "seek")) {
                List<List<Object>> rows = t.where("strategy", strategy);
                assertFalse(rows.isEmpty(), strategy);
                assertEquals(0.0, t.number(rows.getFirst(), "time_ns"));
                assertTrue(rows.stream().allMatch(r -> t.number(r, "occupancy") <= bound), strategy);
            }
            assertEquals("reproduced", s.onlyVerdict().verdict());
        }
    }

    @Test
    void aHandlerAddsLatencyToEveryPutAndLessToLargerOnes() {
        try (QuickSweeps s = new QuickSweeps()) {
            Table t = new VectorFigures(s.context).putLatency().table();
            assertEquals(List.of(1L, 8L, 64L, 1024L), t.rows().stream().map(r -> r.get(0)).toList());
            double last = Double.POSITIVE_INFINITY;
            for (List<Object> r : t.rows()) {
                assertTrue(t.number(r, "spin_ns") > t.number(r, "portals_ns"));
                assertEquals(t.number(r, "spin_ns") / t.number(r, "portals_ns") - 1, t.number(r, "added"), 1e-12);
                assertTrue(t.number(r, "added") < last);
                last = t.number(r, "added");
            }
            assertTrue(s.onlyVerdict().claim().startsWith("6. "));
        }
    }
}
