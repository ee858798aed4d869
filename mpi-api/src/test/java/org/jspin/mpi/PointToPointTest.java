package org.jspin.mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.mpi.op.Ops;
import org.junit.jupiter.api.Test;

/** Point-to-point and a few collectives between in-JVM ranks: the runtime's own smoke test. */
class PointToPointTest {
    @Test
    void eagerAndRendezvousBetweenTwoRanks() {
        LocalRanks.run(2, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            for (int n : new int[] {0, 1, 100, 5000, 1 << 20}) {
                int[] data = new int[n];
                if (w.rank() == 0) {
                    for (int i = 0; i < n; i++) {
                        data[i] = i * 7 + n;
                    }
                    w.send(MemorySegment.ofArray(data), n, Datatype.INT, 1, 5);
                } else {
                    Status s = w.recv(MemorySegment.ofArray(data), n, Datatype.INT, 0, 5);
                    assertEquals(0, s.source());
                    assertEquals(5, s.tag());
                    assertEquals(4L * n, s.byteCount());
                    for (int i = 0; i < n; i++) {
                        assertEquals(i * 7 + n, data[i]);
                    }
                }
            }
        });
    }

    @Test
    void vectorTypeRoundTripAndAllreduce() {
        LocalRanks.run(4, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            Datatype column = Datatype.vector(1000, 1, 3, Datatype.DOUBLE).commit();
            double[] a = new double[3000];
            int peer = w.rank() ^ 1;
            for (int i = 0; i < 3000; i++) {
                a[i] = w.rank() * 10000 + i;
            }
            double[] b = new double[3000];
            w.sendrecv(MemorySegment.ofArray(a), 1, column, peer, 1, MemorySegment.ofArray(b), 1, column, peer, 1);
            for (int i = 0; i < 3000; i++) {
                assertEquals(i % 3 == 0 ? peer * 10000 + i : 0, b[i]);
            }
            long[] in = {w.rank() + 1};
            long[] out = new long[1];
            w.allreduce(MemorySegment.ofArray(in), MemorySegment.ofArray(out), 1, Datatype.LONG, Ops.SUM);
            assertEquals(10, out[0]);
            w.barrier();
            Comm d = w.dup();
            int[] x = {d.rank() == 0 ? 42 : 0};
            d.bcast(MemorySegment.ofArray(x), 1, Datatype.INT, 0);
            assertArrayEquals(new int[] {42}, x);
        });
    }
}
