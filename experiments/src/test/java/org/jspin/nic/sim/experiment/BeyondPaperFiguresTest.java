package org.jspin.nic.sim.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Our own sweeps: hpu-local's catch-up and the strategies under out-of-order delivery. */
class BeyondPaperFiguresTest {
    @Test
    void oneHpuCatchesUpNothingAndMoreHpusCatchUpMore() {
        try (QuickSweeps s = new QuickSweeps()) {
            Table t = new BeyondPaperFigures(s.context).hpuLocalCatchUp().table();
            assertEquals(List.of(1, 2, 4, 8, 16, 32), t.rows().stream().map(r -> r.get(0)).toList());
            assertEquals(0, t.number(t.rows().getFirst(), "catch_up_blocks"));
            for (int i = 1; i < t.rows().size(); i++) {
                assertTrue(t.number(t.rows().get(i), "catch_up_blocks") > t.number(t.rows().get(i - 1), "catch_up_blocks"));
            }
            assertTrue(s.verdicts.isEmpty(), "no claim to judge");
        }
    }

    @Test
    void inOrderDeliveryResetsNothingAndAWindowResetsRwCpWithAFixedDeltaR() {
        try (QuickSweeps s = new QuickSweeps()) {
            Table t = new BeyondPaperFigures(s.context).outOfOrder().table();
            assertEquals(2 * 4, t.rows().size());
            assertTrue(t.where("window", 1).stream().allMatch(r -> t.number(r, "resets") == 0));
            List<Object> fixed = t.where("window", 8).stream().filter(r -> r.get(1).equals("rw-cp/16")).findFirst()
                    .orElseThrow();
            assertTrue(t.number(fixed, "resets") > 0);
            assertTrue(s.onlyVerdict().evidence().contains("rw-cp/16 window 8"));
        }
    }
}
