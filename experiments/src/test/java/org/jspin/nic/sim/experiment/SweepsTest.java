package org.jspin.nic.sim.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.datatype.Datatype;
import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.config.TimingParam;
import org.junit.jupiter.api.Test;

/** The cases and host measurements every family of sweeps shares. */
class SweepsTest {
    @Test
    void quickRunsSmallerVectorsAndShorterWarmUps() {
        try (QuickSweeps quick = new QuickSweeps(true); QuickSweeps full = new QuickSweeps(false)) {
            Sweeps q = new BeyondPaperFigures(quick.context);
            Sweeps f = new BeyondPaperFigures(full.context);
            assertEquals(256 << 10, q.vectorBytes());
            assertEquals(4 << 20, f.vectorBytes());
            assertTrue(q.warmupMillis() < f.warmupMillis());
            assertEquals(SimConfig.DEFAULT.timing().get(TimingParam.LINE_RATE), q.lineRate());
        }
    }

    @Test
    void aVectorHasBlocksAtTwiceTheirStrideInDoublesOrBytes() {
        Datatype doubles = Sweeps.vector(64, 4096);
        assertEquals(4096, doubles.packSize(1));
        assertEquals(2 * 4096 - 64, doubles.compiled().message(1).maxOffset());
        Datatype bytes = Sweeps.vector(12, 1200);
        assertEquals(1200, bytes.packSize(1));
        assertEquals(2 * 1200 - 12, bytes.compiled().message(1).maxOffset());
    }

    @Test
    void theMeasuredHostIsTheLineTimePlusAnUnpack() {
        try (QuickSweeps s = new QuickSweeps()) {
            Sweeps sweeps = new BeyondPaperFigures(s.context);
            Datatype v = Sweeps.vector(64, 64 << 10);
            double line = SimRun.lineNs(64 << 10, SimConfig.DEFAULT);
            for (int threads : new int[] {1, 2}) {
                assertTrue(sweeps.measuredHostNs(v, 1, 64 << 10, threads) > line);
                double gbps = sweeps.measuredHostGbps(v, 1, 64 << 10, threads);
                assertTrue(gbps > 0 && gbps < sweeps.lineRate(), gbps + " Gbit/s");
            }
        }
    }
}
