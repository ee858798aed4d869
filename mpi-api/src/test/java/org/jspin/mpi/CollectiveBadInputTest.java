package org.jspin.mpi;

import static org.jspin.mpi.Expect.error;
import static org.jspin.mpi.Expect.patterned;
import static org.jspin.mpi.Expect.untouched;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.mpi.op.Ops;
import org.jspin.mpi.op.ReduceOp;
import org.junit.jupiter.api.Test;

/**
 * A collective checks on each rank every argument that rank uses before it sends or posts
 * anything. The proof: rank 0 makes each bad call alone, while its peers do nothing, and gets the
 * error at once (a call that communicated first would block on the absent peers, and the run
 * would time out); afterwards every rank runs each collective correctly and gets the right result,
 * which a message or receive left behind by a bad call would spoil.
 */
class CollectiveBadInputTest {
    private static final int N = 3; // not a power of two: allreduce takes the reduce-and-broadcast path

    @Test
    void badArgumentsFailAtOnceAndLeaveNothingBehind() {
        LocalRanks.run(N, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            if (w.rank() == 0) {
                badCallsAlone(w);
            }
            goodCallsEverywhere(w);
            w.barrier();
            assertNull(w.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG));
        });
    }

    @Test
    void everyRankRejectsTheSameBadRootAndTheCommunicatorStillWorks() {
        LocalRanks.run(N, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            MemorySegment one = MemorySegment.ofArray(new int[N]);
            for (int root : new int[] {N, -1, Comm.PROC_NULL, Integer.MAX_VALUE}) {
                String named = Integer.toString(root);
                error(ErrorClass.ERR_ROOT, () -> w.bcast(one, 1, Datatype.INT, root), named);
                error(ErrorClass.ERR_ROOT, () -> w.reduce(one, one, 1, Datatype.INT, Ops.SUM, root), named);
                error(ErrorClass.ERR_ROOT, () -> w.gather(one, 1, Datatype.INT, one, 1, Datatype.INT, root), named);
                error(ErrorClass.ERR_ROOT, () -> w.scatter(one, 1, Datatype.INT, one, 1, Datatype.INT, root), named);
                error(ErrorClass.ERR_ROOT, () -> w.gatherv(one, 1, Datatype.INT, one, new long[N], new long[N],
                        Datatype.INT, root), named);
                error(ErrorClass.ERR_ROOT, () -> w.scatterv(one, new long[N], new long[N], Datatype.INT, one, 1,
                        Datatype.INT, root), named);
            }
            goodCallsEverywhere(w);
        });
    }

    private static void badCallsAlone(Comm w) {
        MemorySegment ints = MemorySegment.ofArray(new int[4 * N]);
        Datatype pair = Datatype.contiguous(2, Datatype.INT).commit();
        Datatype uncommitted = Datatype.vector(2, 1, 2, Datatype.INT);
        MemorySegment readOnly = patterned(4 * 4 * N).asReadOnly();

        // roots
        error(ErrorClass.ERR_ROOT, () -> w.bcast(ints, 1, Datatype.INT, 3), "3");
        error(ErrorClass.ERR_ROOT, () -> w.reduce(ints, ints, 1, Datatype.INT, Ops.SUM, -1), "-1");
        error(ErrorClass.ERR_ROOT, () -> w.gather(ints, 1, Datatype.INT, ints, 1, Datatype.INT, 5), "5");
        error(ErrorClass.ERR_ROOT, () -> w.scatter(ints, 1, Datatype.INT, ints, 1, Datatype.INT, -7), "-7");

        // operators: null, or a predefined one on a derived type (found before any message moves)
        error(ErrorClass.ERR_OP, () -> w.reduce(ints, ints, 1, Datatype.INT, null, 0), "null");
        error(ErrorClass.ERR_OP, () -> w.allreduce(ints, ints, 1, Datatype.INT, null), "null");
        error(ErrorClass.ERR_OP, () -> w.reduce(ints, ints, 2, pair, Ops.SUM, 0), "SUM", "named");
        error(ErrorClass.ERR_OP, () -> w.allreduce(ints, ints, 1, pair, Ops.MAX), "MAX");
        ReduceOp pairSum = Ops.user("pairSum", (in, inout, count, type) -> Ops.SUM.apply(in, inout, 2 * count,
                Datatype.INT), true);

        // counts, types and buffers of the reductions
        error(ErrorClass.ERR_COUNT, () -> w.allreduce(ints, ints, -1, Datatype.INT, Ops.SUM), "-1");
        error(ErrorClass.ERR_TYPE, () -> w.allreduce(ints, ints, 1, null, Ops.SUM), "null");
        error(ErrorClass.ERR_TYPE, () -> w.reduce(ints, ints, 1, uncommitted, pairSum, 0), "not committed");
        error(ErrorClass.ERR_BUFFER, () -> w.allreduce(ints, ints, 4 * N + 1, Datatype.INT, Ops.SUM),
                Long.toString(16L * N));
        error(ErrorClass.ERR_BUFFER, () -> w.allreduce(ints, readOnly, 1, Datatype.INT, Ops.SUM), "read-only");
        error(ErrorClass.ERR_BUFFER, () -> w.reduce(ints, readOnly, 1, Datatype.INT, Ops.SUM, 0), "read-only");
        error(ErrorClass.ERR_BUFFER, () -> w.reduce(null, ints, 1, Datatype.INT, Ops.SUM, 0), "null");

        // bcast, gather, scatter, allgather, alltoall: counts and buffers
        error(ErrorClass.ERR_COUNT, () -> w.bcast(ints, -2, Datatype.INT, 0), "-2");
        error(ErrorClass.ERR_BUFFER, () -> w.bcast(ints, 4 * N + 1, Datatype.INT, 0), "bytes");
        error(ErrorClass.ERR_BUFFER, () -> w.gather(ints, 1, Datatype.INT, ints, 5, Datatype.INT, 0),
                Long.toString(16L * N), Long.toString(20L * N));
        error(ErrorClass.ERR_BUFFER, () -> w.gather(ints, 1, Datatype.INT, readOnly, 1, Datatype.INT, 0), "read-only");
        error(ErrorClass.ERR_BUFFER, () -> w.scatter(ints, 5, Datatype.INT, ints, 1, Datatype.INT, 0), "bytes");
        error(ErrorClass.ERR_BUFFER, () -> w.scatter(ints, 1, Datatype.INT, readOnly, 1, Datatype.INT, 0),
                "read-only");
        error(ErrorClass.ERR_COUNT, () -> w.scatter(ints, 1, Datatype.INT, ints, -4, Datatype.INT, 0), "-4");
        error(ErrorClass.ERR_BUFFER, () -> w.allgather(ints, 1, Datatype.INT, ints, 5, Datatype.INT), "bytes");
        error(ErrorClass.ERR_BUFFER, () -> w.allgather(ints, 4 * N + 1, Datatype.INT, ints, 1, Datatype.INT), "bytes");
        error(ErrorClass.ERR_COUNT, () -> w.allgather(ints, 1, Datatype.INT, ints, Long.MAX_VALUE / 2,
                Datatype.INT), "overflow");
        long perRank = Long.MAX_VALUE / 8; // count x ranks fits in 64 bits, its type map does not: the count is named
        error(ErrorClass.ERR_COUNT, () -> w.alltoall(ints, 1, Datatype.INT, ints, perRank, Datatype.INT),
                Long.toString(perRank), "overflow");
        error(ErrorClass.ERR_BUFFER, () -> w.alltoall(ints, 5, Datatype.INT, ints, 1, Datatype.INT), "bytes");
        error(ErrorClass.ERR_BUFFER, () -> w.alltoall(ints, 1, Datatype.INT, readOnly, 1, Datatype.INT),
                "read-only");
        error(ErrorClass.ERR_TYPE, () -> w.alltoall(ints, 1, uncommitted, ints, 1, Datatype.INT), "not committed");

        // the v and w variants: one entry per rank, non-negative counts, blocks inside the buffer
        long[] ones = {1, 1, 1};
        long[] at = {0, 1, 2};
        error(ErrorClass.ERR_ARG, () -> w.gatherv(ints, 1, Datatype.INT, ints, new long[] {1, 1}, at, Datatype.INT,
                0), "3", "2");
        error(ErrorClass.ERR_ARG, () -> w.scatterv(ints, ones, new long[] {0, 1, 2, 3}, Datatype.INT, ints, 1,
                Datatype.INT, 0), "4");
        error(ErrorClass.ERR_ARG, () -> w.gatherv(ints, 1, Datatype.INT, ints, null, at, Datatype.INT, 0), "null");
        error(ErrorClass.ERR_COUNT, () -> w.gatherv(ints, 1, Datatype.INT, ints, new long[] {1, -6, 1}, at,
                Datatype.INT, 0), "-6", "rank 1");
        error(ErrorClass.ERR_BUFFER, () -> w.gatherv(ints, 1, Datatype.INT, ints, ones, new long[] {0, 1, 4 * N},
                Datatype.INT, 0), "rank 2");
        error(ErrorClass.ERR_BUFFER, () -> w.scatterv(ints, ones, new long[] {-1, 0, 1}, Datatype.INT, ints, 1,
                Datatype.INT, 0), "rank 0");
        error(ErrorClass.ERR_ARG, () -> w.alltoallv(ints, ones, at, Datatype.INT, ints, ones, new long[] {0, 1},
                Datatype.INT), "2");
        error(ErrorClass.ERR_COUNT, () -> w.alltoallv(ints, new long[] {1, 1, -1}, at, Datatype.INT, ints, ones, at,
                Datatype.INT), "-1");
        error(ErrorClass.ERR_BUFFER, () -> w.alltoallv(ints, ones, at, Datatype.INT, readOnly, ones, at,
                Datatype.INT), "read-only");
        Datatype[] ints3 = {Datatype.INT, Datatype.INT, Datatype.INT};
        long[] bytesAt = {0, 4, 8};
        error(ErrorClass.ERR_ARG, () -> w.alltoallw(ints, ones, bytesAt, new Datatype[] {Datatype.INT, Datatype.INT},
                ints, ones, bytesAt, ints3), "2");
        error(ErrorClass.ERR_ARG, () -> w.alltoallw(ints, ones, bytesAt, ints3, ints, ones, bytesAt, null), "null");
        error(ErrorClass.ERR_TYPE, () -> w.alltoallw(ints, ones, bytesAt, new Datatype[] {Datatype.INT, null,
                Datatype.INT}, ints, ones, bytesAt, ints3), "rank 1");
        error(ErrorClass.ERR_TYPE, () -> w.alltoallw(ints, ones, bytesAt, ints3, ints, ones, bytesAt,
                new Datatype[] {Datatype.INT, Datatype.INT, uncommitted}), "not committed");
        error(ErrorClass.ERR_COUNT, () -> w.alltoallw(ints, ones, bytesAt, ints3, ints, new long[] {0, -3, 0},
                bytesAt, ints3), "-3");
        error(ErrorClass.ERR_BUFFER, () -> w.alltoallw(ints, ones, bytesAt, ints3, ints, ones,
                new long[] {0, 4, 16L * N - 2}, ints3), "rank 2");
        error(ErrorClass.ERR_ARG, () -> w.alltoallw(ints, ones, new long[] {0, 4}, ints3, ints, ones, bytesAt, ints3),
                "2");

        // split and cartCreate check before their collective part
        error(ErrorClass.ERR_ARG, () -> w.split(-5, 0), "-5");
        error(ErrorClass.ERR_DIMS, () -> w.cartCreate(new int[] {2, 2}, new boolean[2], false), "[2, 2]", "4", "3");
        error(ErrorClass.ERR_DIMS, () -> w.cartCreate(new int[] {3, 0}, new boolean[2], false), "0");
        error(ErrorClass.ERR_DIMS, () -> w.cartCreate(new int[] {-1, 3}, new boolean[2], false), "-1");
        error(ErrorClass.ERR_DIMS, () -> w.cartCreate(new int[] {3}, new boolean[2], false), "1", "2");
        error(ErrorClass.ERR_DIMS, () -> w.cartCreate(null, new boolean[0], false), "null");
        error(ErrorClass.ERR_DIMS, () -> w.cartCreate(new int[] {1 << 16, 1 << 16}, new boolean[2], false), "65536");
        untouched(readOnly, "a read-only buffer");
    }

    /** Every collective once, checked, on every rank. */
    private static void goodCallsEverywhere(Comm w) {
        int r = w.rank();
        int[] x = {r == 1 ? 77 : 0};
        w.bcast(MemorySegment.ofArray(x), 1, Datatype.INT, 1);
        assertEquals(77, x[0]);

        long[] sum = new long[1];
        w.allreduce(MemorySegment.ofArray(new long[] {r + 1}), MemorySegment.ofArray(sum), 1, Datatype.LONG, Ops.SUM);
        assertEquals(N * (N + 1) / 2, sum[0]);
        int[] max = new int[1];
        w.reduce(MemorySegment.ofArray(new int[] {10 * r}), MemorySegment.ofArray(max), 1, Datatype.INT, Ops.MAX, 2);
        assertEquals(r == 2 ? 10 * (N - 1) : 0, max[0]);

        int[] gathered = new int[N];
        w.gather(MemorySegment.ofArray(new int[] {r * r}), 1, Datatype.INT, MemorySegment.ofArray(gathered), 1,
                Datatype.INT, 0);
        if (r == 0) {
            assertArrayEquals(new int[] {0, 1, 4}, gathered);
        }
        int big = 10_000; // 40 KB blocks: rendezvous, each landing at its own offset of the buffer
        int[] mine = new int[big];
        java.util.Arrays.fill(mine, r + 1);
        int[] bigAll = new int[big * N];
        w.allgather(MemorySegment.ofArray(mine), big, Datatype.INT, MemorySegment.ofArray(bigAll), big, Datatype.INT);
        for (int i = 0; i < bigAll.length; i++) {
            assertEquals(i / big + 1, bigAll[i], "element " + i);
        }
        int[] gv = new int[2 * N];
        w.gatherv(MemorySegment.ofArray(new int[] {r + 100}), 1, Datatype.INT, MemorySegment.ofArray(gv),
                new long[] {1, 1, 1}, new long[] {5, 3, 1}, Datatype.INT, 0);
        if (r == 0) {
            assertArrayEquals(new int[] {0, 102, 0, 101, 0, 100}, gv);
        }

        int[] part = new int[1];
        w.scatter(MemorySegment.ofArray(new int[] {7, 8, 9}), 1, Datatype.INT, MemorySegment.ofArray(part), 1,
                Datatype.INT, 0);
        assertEquals(7 + r, part[0]);
        w.scatterv(MemorySegment.ofArray(new int[] {0, 1, 2, 3, 4, 5}), new long[] {1, 1, 1}, new long[] {4, 2, 0},
                Datatype.INT, MemorySegment.ofArray(part), 1, Datatype.INT, 0);
        assertEquals(4 - 2 * r, part[0]);

        int[] all = new int[N];
        w.allgather(MemorySegment.ofArray(new int[] {r + 1}), 1, Datatype.INT, MemorySegment.ofArray(all), 1,
                Datatype.INT);
        assertArrayEquals(new int[] {1, 2, 3}, all);

        int[] out = new int[N];
        int[] in = new int[N];
        for (int i = 0; i < N; i++) {
            out[i] = 10 * r + i;
        }
        w.alltoall(MemorySegment.ofArray(out), 1, Datatype.INT, MemorySegment.ofArray(in), 1, Datatype.INT);
        assertArrayEquals(new int[] {r, 10 + r, 20 + r}, in);
        long[] ones = {1, 1, 1};
        long[] at = {0, 1, 2};
        java.util.Arrays.fill(in, 0);
        w.alltoallv(MemorySegment.ofArray(out), ones, at, Datatype.INT, MemorySegment.ofArray(in), ones, at,
                Datatype.INT);
        assertArrayEquals(new int[] {r, 10 + r, 20 + r}, in);
        java.util.Arrays.fill(in, 0);
        Datatype[] ints3 = {Datatype.INT, Datatype.INT, Datatype.INT};
        long[] bytesAt = {0, 4, 8};
        w.alltoallw(MemorySegment.ofArray(out), ones, bytesAt, ints3, MemorySegment.ofArray(in), ones, bytesAt, ints3);
        assertArrayEquals(new int[] {r, 10 + r, 20 + r}, in);
        w.barrier();
    }
}
