package org.jspin.examples.halo3d;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jspin.mpi.MpiOptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** halo3d on in-JVM ranks is bit-identical to the serial run, on both backends and uneven splits. */
class Halo3dTest {
    @ParameterizedTest(name = "{0} ranks, N = {1}, {2} iterations, {3}")
    @CsvSource({"1, 6, 3, host", "2, 7, 4, host", "8, 10, 5, host", "6, 9, 4, host", "12, 13, 3, host",
        "8, 10, 5, sim", "3, 5, 2, sim"})
    void matchesTheSerialRunExactly(int ranks, int n, int iterations, String backend) {
        Halo3d.Result r = Halo3d.runLocal(ranks, MpiOptions.defaults().withBackend(backend),
                new Halo3d.Params(n, iterations, true));
        assertEquals(0.0, r.maxAbsError(), "bit-identical");
        assertEquals(ranks, r.dims()[0] * r.dims()[1] * r.dims()[2]);
        if (ranks > 1) {
            assertTrue(r.traffic().bytesMoved() > 0, "faces travelled");
        }
    }

    @ParameterizedTest(name = "N = {0}")
    @CsvSource({"4", "9"})
    void theSerialRunKeepsItsBoundaryAndSpreadsIt(int n) {
        double[] u = Box.serial(n, 3);
        int w = n + 2;
        assertEquals(Box.boundary(0, 1, 1), u[(0 * w + 1) * w + 1]);
        assertTrue(u[(1 * w + 1) * w + 1] != 0, "the boundary has spread inwards");
        assertArrayEquals(u, Box.serial(n, 3), "deterministic");
    }
}
