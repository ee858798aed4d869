package org.jspin.examples.halo2d;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.mpi.MpiOptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The distributed stencil equals the serial one bit for bit: same arithmetic, same order per point. */
class Halo2dTest {
    @ParameterizedTest(name = "{0} ranks, N={1}, {2} iterations")
    @CsvSource({"1, 17, 5", "2, 31, 7", "3, 20, 4", "4, 64, 10", "6, 37, 9"})
    void matchesTheSerialRun(int ranks, int n, int iterations) {
        Halo2d.Result r = Halo2d.runLocal(ranks, MpiOptions.defaults(), new Halo2d.Params(n, iterations, true));
        assertEquals(0.0, r.maxAbsError(), "max abs error against the serial run");
        assertEquals(ranks, r.ranks());
        assertEquals(ranks, r.dims()[0] * r.dims()[1]);
        if (ranks > 1) {
            assertTrue(r.bytesMoved() > 0, "halo bytes were counted");
            assertTrue(r.cpuBytesCopied() > 0 || r.dims()[1] == 1, "column halos were packed by the CPU");
        }
    }
}
