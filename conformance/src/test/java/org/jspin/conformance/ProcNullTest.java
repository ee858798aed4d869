package org.jspin.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import org.jspin.datatype.Datatype;
import org.jspin.mpi.CartComm;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Message;
import org.jspin.mpi.Request;
import org.jspin.mpi.Status;
import org.jspin.mpi.topo.DimsCreate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Transfers with PROC_NULL complete at once and move nothing; Cartesian shifts give PROC_NULL past a border. */
class ProcNullTest {
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.jspin.conformance.Targets#targets")
    void transfersWithProcNullCompleteAtOnce(Target target) {
        target.run(2, mpi -> {
            Comm w = mpi.world();
            MemorySegment data = Bytes.pattern(1 << 20, 1);
            MemorySegment buf = Bytes.sentinels(1 << 20);
            Request s = w.isend(data, 1 << 18, Datatype.INT, Comm.PROC_NULL, 3);
            assertTrue(s.isDone(), "isend to PROC_NULL is complete when it returns");
            Request r = w.irecv(buf, 1 << 18, Datatype.INT, Comm.PROC_NULL, 3);
            assertTrue(r.isDone(), "irecv from PROC_NULL is complete when it returns");
            checkProcNull(r.waitFor());
            checkProcNull(r.test());
            w.send(data, 1 << 18, Datatype.INT, Comm.PROC_NULL, 0);
            checkProcNull(w.recv(buf, 1 << 18, Datatype.INT, Comm.PROC_NULL, Comm.ANY_TAG));
            checkProcNull(w.sendrecv(data, 10, Datatype.INT, Comm.PROC_NULL, 1, buf, 10, Datatype.INT,
                    Comm.PROC_NULL, 1));
            checkProcNull(w.probe(Comm.PROC_NULL, Comm.ANY_TAG));
            checkProcNull(w.iprobe(Comm.PROC_NULL, 5));
            Message m = w.mprobe(Comm.PROC_NULL, Comm.ANY_TAG);
            checkProcNull(m.status());
            checkProcNull(m.recv(buf, 100, Datatype.INT));
            Message m2 = w.improbe(Comm.PROC_NULL, 4);
            assertNotNull(m2, "improbe of PROC_NULL gives MPI_MESSAGE_NO_PROC");
            checkProcNull(m2.irecv(buf, 100, Datatype.INT).waitFor());
            Bytes.assertSameBytes(Bytes.sentinels(1 << 20), buf, "nothing was written");
            // a real exchange still works, half of it with PROC_NULL
            int peer = 1 - w.rank();
            int[] got = {-1};
            Status st = w.sendrecv(MemorySegment.ofArray(new int[] {w.rank()}), 1, Datatype.INT,
                    w.rank() == 0 ? peer : Comm.PROC_NULL, 8, MemorySegment.ofArray(got), 1, Datatype.INT,
                    w.rank() == 1 ? peer : Comm.PROC_NULL, 8);
            if (w.rank() == 1) {
                assertEquals(0, st.source());
                assertEquals(0, got[0]);
            } else {
                checkProcNull(st);
                assertEquals(-1, got[0]);
            }
        });
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> gridCases() {
        return Targets.withRanks(1, 2, 4, 6);
    }

    /**
     * On a 2D grid (dims from dims_create, one dimension periodic), every shift agrees with
     * coordinate arithmetic, and an exchange along each shift gives PROC_NULL status at the
     * non-periodic borders and the neighbour's rank elsewhere.
     */
    @ParameterizedTest(name = "{0} {1} ranks")
    @MethodSource("gridCases")
    void cartesianShiftsGiveProcNullAtBorders(Target target, int n) {
        target.run(n, mpi -> {
            Comm w = mpi.world();
            int[] dims = DimsCreate.dimsCreate(n, new int[2]);
            assertEquals(n, dims[0] * dims[1], Arrays.toString(dims));
            boolean[] periods = {false, true};
            CartComm cart = w.cartCreate(dims, periods, false);
            assertNotNull(cart);
            assertArrayEquals(dims, cart.dims());
            int[] me = cart.coords();
            assertEquals(cart.rank(), cart.rankOf(me));
            for (int dim = 0; dim < 2; dim++) {
                for (int disp : new int[] {1, -1, 2}) {
                    CartComm.Shift sh = cart.shift(dim, disp);
                    assertEquals(expected(me, dims, periods, dim, -disp, cart), sh.source(),
                            "source of shift " + disp + " along " + dim + " at " + Arrays.toString(me));
                    assertEquals(expected(me, dims, periods, dim, disp, cart), sh.dest(),
                            "dest of shift " + disp + " along " + dim + " at " + Arrays.toString(me));
                    int[] got = {-7};
                    Status s = cart.sendrecv(MemorySegment.ofArray(new int[] {cart.rank()}), 1, Datatype.INT, sh.dest(),
                            dim * 10 + disp + 5, MemorySegment.ofArray(got), 1, Datatype.INT, sh.source(),
                            dim * 10 + disp + 5);
                    if (sh.source() == Comm.PROC_NULL) {
                        checkProcNull(s);
                        assertEquals(-7, got[0], "a receive from PROC_NULL writes nothing");
                    } else {
                        assertEquals(sh.source(), s.source());
                        assertEquals(sh.source(), got[0]);
                    }
                }
            }
        });
    }

    private static int expected(int[] me, int[] dims, boolean[] periods, int dim, int disp, CartComm cart) {
        int[] c = me.clone();
        c[dim] += disp;
        if (c[dim] < 0 || c[dim] >= dims[dim]) {
            if (!periods[dim]) {
                return Comm.PROC_NULL;
            }
            c[dim] = Math.floorMod(c[dim], dims[dim]);
        }
        return c[0] * dims[1] + c[1]; // row-major
    }

    private static void checkProcNull(Status s) {
        assertNotNull(s);
        assertEquals(Comm.PROC_NULL, s.source(), "source of a transfer with PROC_NULL");
        assertEquals(Comm.ANY_TAG, s.tag(), "tag of a receive from PROC_NULL");
        assertEquals(0, s.byteCount());
        assertEquals(0, s.count(Datatype.INT));
        assertTrue(!s.cancelled() && s.error() == null);
    }
}
