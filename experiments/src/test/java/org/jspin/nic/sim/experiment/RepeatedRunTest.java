package org.jspin.nic.sim.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The simulated columns do not depend on the run: figures made again, on another thread count, have
 * the same cells as the shared quick run's, apart from the columns named measured.
 */
class RepeatedRunTest {
    private static Table of(String id) {
        return QuickFigures.result().figures().stream().filter(f -> f.id().equals(id)).findFirst().orElseThrow()
                .table();
    }

    private static void assertSameSimulatedCells(Table expected, Table again, String id) {
        assertEquals(expected.columns(), again.columns(), id);
        assertEquals(expected.rows().size(), again.rows().size(), id);
        for (int i = 0; i < expected.rows().size(); i++) {
            for (int k = 0; k < expected.columns().size(); k++) {
                String column = expected.columns().get(k);
                if (!expected.measured().contains(column)) {
                    assertEquals(expected.rows().get(i).get(k), again.rows().get(i).get(k),
                            id + " row " + i + " column " + column);
                }
            }
        }
    }

    @Test
    void vectorLayoutAndDmaFiguresRepeatCellForCell() {
        try (QuickSweeps s = new QuickSweeps()) {
            VectorFigures vector = new VectorFigures(s.context);
            assertSameSimulatedCells(of("fig08-vector-throughput"), vector.vectorThroughput().table(),
                    "fig08-vector-throughput");
            assertSameSimulatedCells(of("fig14-dma-queue"), vector.dmaQueue().table(), "fig14-dma-queue");
            List<Layout> cases = Layout.all(QuickSweeps.layouts(), true);
            assertSameSimulatedCells(of("fig16-layout-speedup"), new LayoutFigures(s.context).layoutSpeedup(cases)
                    .table(), "fig16-layout-speedup");
        }
    }
}
