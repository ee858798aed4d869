package org.jspin.mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.junit.jupiter.api.Test;

/** Buffers whose datatype origin is not their first byte (a type map reaching below displacement 0). */
class OriginTest {
    @Test
    void aTypeWithNegativeDisplacementsTravelsFromAnOrigin() {
        // ints at displacements -8 and +4 bytes around the origin
        Datatype t = Datatype.hindexed(new long[] {1, 1}, new long[] {-8, 4}, Datatype.INT).commit();
        LocalRanks.run(2, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            int[] a = {0, 0, 0, 0, 0};
            if (w.rank() == 0) {
                int[] s = {11, 22, 33, 44, 55}; // origin at byte 8: sends s[0] and s[3]
                w.isend(MemorySegment.ofArray(s), 8, 1, t, 1, 0).waitFor();
            } else {
                w.irecv(MemorySegment.ofArray(a), 12, 1, t, 0, 0).waitFor(); // lands in a[1] and a[4]
                assertArrayEquals(new int[] {0, 11, 0, 0, 44}, a);
            }
        });
    }

    @Test
    void aFailedReceiveStillShowsItsStatus() {
        LocalRanks.run(2, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 0) {
                w.send(MemorySegment.ofArray(new int[4]), 4, Datatype.INT, 1, 0);
            } else {
                Request r = w.irecv(MemorySegment.ofArray(new int[2]), 2, Datatype.INT, 0, 0);
                Expect.error(ErrorClass.ERR_TRUNCATE, r::waitFor, "16");
                Status s = r.status();
                assertNotNull(s);
                assertEquals(ErrorClass.ERR_TRUNCATE, s.error().errorClass());
                assertEquals(8, s.byteCount(), "the bytes that fit were written");
            }
        });
    }
}
