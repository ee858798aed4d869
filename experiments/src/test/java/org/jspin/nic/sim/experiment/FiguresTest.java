package org.jspin.nic.sim.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** A quick run has every figure and every verdict, in the report's order. */
class FiguresTest {
    @Test
    void aQuickRunHasEveryFigureAndVerdictInOrder() {
        Figures.Result r = QuickFigures.result();
        assertEquals(List.of("fig08-vector-throughput", "fig16-layout-speedup", "fig17-memory-traffic",
                "fig18-checkpoint-reuse", "fig14-dma-queue", "fig02-put-latency", "fig-referee-memory",
                "fig-referee-host", "fig-referee-iovec", "fig-settle", "fig-hpu-local", "fig-ooo", "fig-seek",
                "fig-fft2d-scaling", "fig-halo2d-scaling", "fig-halo3d-scaling"),
                r.figures().stream().map(Figure::id).toList());
        List<String> claims = r.verdicts().stream().map(v -> v.claim().substring(0, v.claim().indexOf(' '))).toList();
        assertEquals(List.of("1.", "2.", "3.", "4.", "5.", "6.", "Referee", "Referee", "Referee", "Settle:", "Beyond",
                "Beyond", "7.", "Beyond", "Beyond"), claims);
        assertTrue(r.packets() > 0 && r.simSeconds() > 0 && r.wallSeconds() >= r.simSeconds());
        assertEquals("paper", r.preset());
    }
}
