package org.jspin.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.lang.foreign.MemorySegment;
import java.util.stream.Stream;

import org.jspin.datatype.Datatype;
import org.jspin.mpi.CartComm;
import org.jspin.mpi.Comm;
import org.jspin.mpi.topo.DimsCreate;
import org.jspin.nic.NicConfig;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A 2D Jacobi stencil on a Cartesian grid of ranks: contiguous rows and vector-typed columns as
 * halos, PROC_NULL at the fixed borders, optionally periodic in the second dimension. The same
 * arithmetic in the same order as a serial run, so the result must be bit for bit the serial one.
 */
class HaloExchangeTest {
    private static final int NX = 60;
    private static final int NY = 48;
    private static final int ITERATIONS = 25;

    static Stream<Arguments> cases() {
        return Targets.all().stream().flatMap(t -> Stream.of(1, 2, 3, 4, 6).flatMap(n -> Stream.of(false, true)
                .flatMap(periodic -> Stream.of(Named.of("default", NicConfig.DEFAULT), Named.of("small-chunks",
                        Targets.SMALL)).map(p -> Arguments.of(Named.of(t.toString(), t), n, periodic, p)))));
    }

    /** Global initial value at (i, j) of the (NX+2) x (NY+2) grid, borders included. */
    private static double initial(int i, int j) {
        if (i == 0 || i == NX + 1 || j == 0 || j == NY + 1) {
            return 1 + 0.5 * i + 0.25 * j;
        }
        return ((i * 31 + j * 17) % 97) / 7.0;
    }

    /** The serial run; the ghost columns wrap when {@code periodic}. */
    static double[][] serial(boolean periodic) {
        double[][] a = new double[NX + 2][NY + 2];
        double[][] b = new double[NX + 2][NY + 2];
        for (int i = 0; i < NX + 2; i++) {
            for (int j = 0; j < NY + 2; j++) {
                a[i][j] = initial(i, j);
                b[i][j] = a[i][j];
            }
        }
        for (int it = 0; it < ITERATIONS; it++) {
            if (periodic) {
                for (int i = 1; i <= NX; i++) {
                    a[i][0] = a[i][NY];
                    a[i][NY + 1] = a[i][1];
                }
            }
            for (int i = 1; i <= NX; i++) {
                for (int j = 1; j <= NY; j++) {
                    b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
                }
            }
            double[][] t = a;
            a = b;
            b = t;
        }
        return a;
    }

    @ParameterizedTest(name = "{0} {1} ranks periodic-y={2} {3}")
    @MethodSource("cases")
    void jacobiMatchesTheSerialStencil(Target target, int n, boolean periodic, NicConfig nic) {
        double[][] expected = serial(periodic);
        target.run(n, nic, mpi -> {
            Comm w = mpi.world();
            int[] dims = DimsCreate.dimsCreate(n, new int[2]);
            if (NX % dims[0] != 0 || NY % dims[1] != 0) {
                throw new IllegalStateException("grid " + NX + "x" + NY + " does not split over " + dims[0] + "x" + dims[1]);
            }
            CartComm cart = w.cartCreate(dims, new boolean[] {false, periodic}, false);
            assertNotNull(cart);
            int lx = NX / dims[0];
            int ly = NY / dims[1];
            int stride = ly + 2;
            int[] c = cart.coords();
            int x0 = c[0] * lx; // global index of local row 0 (the halo)
            int y0 = c[1] * ly;
            double[] a = new double[(lx + 2) * stride];
            double[] b = new double[(lx + 2) * stride];
            for (int i = 0; i < lx + 2; i++) {
                for (int j = 0; j < stride; j++) {
                    a[i * stride + j] = initial(x0 + i, y0 + j); // borders and interior; inner halos get overwritten
                    b[i * stride + j] = a[i * stride + j];
                }
            }
            Datatype column = Datatype.vector(lx, 1, stride, Datatype.DOUBLE).commit();
            CartComm.Shift ud = cart.shift(0, 1);
            CartComm.Shift lr = cart.shift(1, 1);
            for (int it = 0; it < ITERATIONS; it++) {
                MemorySegment s = MemorySegment.ofArray(a);
                // rows: last interior row down, first interior row up
                cart.sendrecv(s.asSlice(8L * (lx * stride + 1)), ly, Datatype.DOUBLE, ud.dest(), 1,
                        s.asSlice(8L * 1), ly, Datatype.DOUBLE, ud.source(), 1);
                cart.sendrecv(s.asSlice(8L * (stride + 1)), ly, Datatype.DOUBLE, ud.source(), 2,
                        s.asSlice(8L * ((lx + 1) * stride + 1)), ly, Datatype.DOUBLE, ud.dest(), 2);
                // columns: last interior column right, first interior column left
                cart.sendrecv(s.asSlice(8L * (stride + ly)), 1, column, lr.dest(), 3,
                        s.asSlice(8L * stride), 1, column, lr.source(), 3);
                cart.sendrecv(s.asSlice(8L * (stride + 1)), 1, column, lr.source(), 4,
                        s.asSlice(8L * (stride + ly + 1)), 1, column, lr.dest(), 4);
                for (int i = 1; i <= lx; i++) {
                    for (int j = 1; j <= ly; j++) {
                        int k = i * stride + j;
                        b[k] = 0.25 * (a[k - stride] + a[k + stride] + a[k - 1] + a[k + 1]);
                    }
                }
                double[] t = a;
                a = b;
                b = t;
            }
            for (int i = 1; i <= lx; i++) {
                for (int j = 1; j <= ly; j++) {
                    double want = expected[x0 + i][y0 + j];
                    double got = a[i * stride + j];
                    if (Double.doubleToLongBits(want) != Double.doubleToLongBits(got)) {
                        assertEquals(want, got, 0.0, "point (" + (x0 + i) + ", " + (y0 + j) + ") on rank " + cart.rank()
                                + " at " + java.util.Arrays.toString(c) + " after " + ITERATIONS + " iterations");
                    }
                }
            }
        });
    }
}
