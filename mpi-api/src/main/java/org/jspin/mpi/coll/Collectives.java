package org.jspin.mpi.coll;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.Request;
import org.jspin.mpi.op.ReduceOp;

/**
 * The collective algorithms, over point-to-point on a communicator's collective context. Typed
 * data moves in the caller's datatypes (the NIC packs and unpacks), so a broadcast or gather of a
 * column type needs no copy here; reductions pack into contiguous scratch, combine, and unpack.
 * Each method checks the buffers it will write before any message leaves.
 */
public final class Collectives {
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    private Collectives() {
    }

    /** Dissemination barrier: round k, signal rank + 2^k and hear from rank - 2^k; log2(n) rounds. */
    public static void barrier(Transport t) {
        int n = t.size();
        int r = t.rank();
        for (int k = 1; k < n; k <<= 1) {
            t.sendrecv(EMPTY, 0, 0, Datatype.BYTE, (r + k) % n, EMPTY, 0, 0, Datatype.BYTE, (r - k + n) % n,
                    CollTags.BARRIER);
        }
    }

    /** Binomial tree from {@code root}: receive once from the parent, then send to each child. */
    public static void bcast(Transport t, MemorySegment buf, long count, Datatype type, int root) {
        type.cursor(count, buf); // checks the buffer on every rank before anything moves
        int n = t.size();
        int vr = (t.rank() - root + n) % n;
        int mask = 1;
        while (mask < n) {
            if ((vr & mask) != 0) {
                t.irecv(buf, 0, count, type, (vr - mask + root) % n, CollTags.BCAST).waitFor();
                break;
            }
            mask <<= 1;
        }
        List<Request> sends = new ArrayList<>();
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (vr + mask < n) {
                sends.add(t.isend(buf, 0, count, type, (vr + mask + root) % n, CollTags.BCAST));
            }
        }
        Request.waitAll(sends);
    }

    /**
     * Binomial reduction towards rank 0 in rank order (each partial result covers a run of
     * consecutive ranks, lower ranks on the left, so non-commutative operators are right), then
     * the result moves to {@code root}.
     */
    public static void reduce(Transport t, MemorySegment sendBuf, MemorySegment recvBuf, long count, Datatype type,
                              ReduceOp op, int root) {
        if (t.rank() == root) {
            type.cursor(count, recvBuf);
        }
        MemorySegment result = reduceToZero(t, sendBuf, count, type, op, CollTags.REDUCE);
        long bytes = type.packSize(count);
        if (root != 0) {
            if (t.rank() == 0) {
                t.isend(result, 0, bytes, Datatype.BYTE, root, CollTags.REDUCE).waitFor();
            } else if (t.rank() == root) {
                result = scratch(bytes);
                t.irecv(result, 0, bytes, Datatype.BYTE, 0, CollTags.REDUCE).waitFor();
            }
        }
        if (t.rank() == root) {
            type.unpack(count, result, recvBuf);
        }
    }

    /**
     * Recursive doubling when the operator commutes and the size is a power of two (log2(n)
     * exchanges, every rank combining lower-rank data on the left so all get the same bits);
     * otherwise the rank-ordered reduction to rank 0 and a binomial broadcast.
     */
    public static void allreduce(Transport t, MemorySegment sendBuf, MemorySegment recvBuf, long count, Datatype type,
                                 ReduceOp op) {
        type.cursor(count, recvBuf);
        int n = t.size();
        int r = t.rank();
        long bytes = type.packSize(count);
        MemorySegment acc;
        if (op.commutative() && Integer.bitCount(n) == 1) {
            acc = packed(sendBuf, count, type);
            MemorySegment tmp = scratch(bytes);
            for (int mask = 1; mask < n; mask <<= 1) {
                int partner = r ^ mask;
                t.sendrecv(acc, 0, bytes, Datatype.BYTE, partner, tmp, 0, bytes, Datatype.BYTE, partner,
                        CollTags.ALLREDUCE);
                if (partner < r) {
                    op.apply(tmp, acc, count, type); // acc = theirs op mine
                } else {
                    op.apply(acc, tmp, count, type); // tmp = mine op theirs
                    MemorySegment s = acc;
                    acc = tmp;
                    tmp = s;
                }
            }
        } else {
            acc = reduceToZero(t, sendBuf, count, type, op, CollTags.ALLREDUCE);
            if (r != 0) {
                acc = scratch(bytes);
            }
            bcast(t, acc, bytes, Datatype.BYTE, 0);
        }
        type.unpack(count, acc, recvBuf);
    }

    private static MemorySegment reduceToZero(Transport t, MemorySegment sendBuf, long count, Datatype type,
                                              ReduceOp op, int tag) {
        int n = t.size();
        int r = t.rank();
        long bytes = type.packSize(count);
        MemorySegment acc = packed(sendBuf, count, type);
        MemorySegment tmp = null;
        for (int mask = 1; mask < n; mask <<= 1) {
            if ((r & mask) != 0) {
                t.isend(acc, 0, bytes, Datatype.BYTE, r - mask, tag).waitFor();
                return acc;
            }
            if (r + mask < n) {
                if (tmp == null) {
                    tmp = scratch(bytes);
                }
                t.irecv(tmp, 0, bytes, Datatype.BYTE, r + mask, tag).waitFor();
                op.apply(acc, tmp, count, type); // tmp = acc op tmp: ranks [r, r+mask) before [r+mask, ...)
                MemorySegment s = acc;
                acc = tmp;
                tmp = s;
            }
        }
        return acc;
    }

    /** Linear gather: the root posts a receive per rank into its block, all at once. */
    public static void gather(Transport t, MemorySegment sendBuf, long sendCount, Datatype sendType,
                              MemorySegment recvBuf, long recvCount, Datatype recvType, int root) {
        int n = t.size();
        if (t.rank() != root) {
            t.isend(sendBuf, 0, sendCount, sendType, root, CollTags.GATHER).waitFor();
            return;
        }
        long block = blockBytes(recvCount, recvType);
        List<Request> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(t.irecv(recvBuf, i * block, recvCount, recvType, i, CollTags.GATHER));
        }
        all.add(t.isend(sendBuf, 0, sendCount, sendType, root, CollTags.GATHER));
        Request.waitAll(all);
    }

    /** Linear gather with a count and a displacement (in extents of the receive type) per rank. */
    public static void gatherv(Transport t, MemorySegment sendBuf, long sendCount, Datatype sendType,
                               MemorySegment recvBuf, long[] recvCounts, long[] displs, Datatype recvType, int root) {
        int n = t.size();
        if (t.rank() != root) {
            t.isend(sendBuf, 0, sendCount, sendType, root, CollTags.GATHER).waitFor();
            return;
        }
        List<Request> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(t.irecv(recvBuf, blockBytes(displs[i], recvType), recvCounts[i], recvType, i, CollTags.GATHER));
        }
        all.add(t.isend(sendBuf, 0, sendCount, sendType, root, CollTags.GATHER));
        Request.waitAll(all);
    }

    /** Linear scatter: the root sends each rank its block, all at once. */
    public static void scatter(Transport t, MemorySegment sendBuf, long sendCount, Datatype sendType,
                               MemorySegment recvBuf, long recvCount, Datatype recvType, int root) {
        int n = t.size();
        Request mine = t.irecv(recvBuf, 0, recvCount, recvType, root, CollTags.SCATTER);
        if (t.rank() == root) {
            long block = blockBytes(sendCount, sendType);
            List<Request> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                all.add(t.isend(sendBuf, i * block, sendCount, sendType, i, CollTags.SCATTER));
            }
            all.add(mine);
            Request.waitAll(all);
        } else {
            mine.waitFor();
        }
    }

    /** Linear scatter with a count and a displacement (in extents of the send type) per rank. */
    public static void scatterv(Transport t, MemorySegment sendBuf, long[] sendCounts, long[] displs,
                                Datatype sendType, MemorySegment recvBuf, long recvCount, Datatype recvType, int root) {
        int n = t.size();
        Request mine = t.irecv(recvBuf, 0, recvCount, recvType, root, CollTags.SCATTER);
        if (t.rank() == root) {
            List<Request> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                all.add(t.isend(sendBuf, blockBytes(displs[i], sendType), sendCounts[i], sendType, i,
                        CollTags.SCATTER));
            }
            all.add(mine);
            Request.waitAll(all);
        } else {
            mine.waitFor();
        }
    }

    /**
     * Ring allgather: each rank places its own block, then in n-1 steps passes to its right the
     * block it received last, straight from and into the receive buffer.
     */
    public static void allgather(Transport t, MemorySegment sendBuf, long sendCount, Datatype sendType,
                                 MemorySegment recvBuf, long recvCount, Datatype recvType) {
        int n = t.size();
        int r = t.rank();
        long block = blockBytes(recvCount, recvType);
        recvType.cursor(blocks(recvCount, n), recvBuf);
        t.sendrecv(sendBuf, 0, sendCount, sendType, r, recvBuf, r * block, recvCount, recvType, r,
                CollTags.ALLGATHER);
        int right = (r + 1) % n;
        int left = (r - 1 + n) % n;
        for (int step = 0; step < n - 1; step++) {
            int out = (r - step + n) % n;
            int in = (r - step - 1 + n) % n;
            t.sendrecv(recvBuf, out * block, recvCount, recvType, right, recvBuf, in * block, recvCount, recvType,
                    left, CollTags.ALLGATHER);
        }
    }

    /** Pairwise exchange: in step s send to rank + s and receive from rank - s; n steps. */
    public static void alltoall(Transport t, MemorySegment sendBuf, long sendCount, Datatype sendType,
                                MemorySegment recvBuf, long recvCount, Datatype recvType) {
        int n = t.size();
        long[] sc = new long[n];
        long[] sd = new long[n];
        long[] rc = new long[n];
        long[] rd = new long[n];
        for (int i = 0; i < n; i++) {
            sc[i] = sendCount;
            sd[i] = i * sendCount;
            rc[i] = recvCount;
            rd[i] = i * recvCount;
        }
        alltoallv(t, sendBuf, sc, sd, sendType, recvBuf, rc, rd, recvType);
    }

    /** Pairwise exchange with counts and displacements (in extents of the types) per peer. */
    public static void alltoallv(Transport t, MemorySegment sendBuf, long[] sendCounts, long[] sendDispls,
                                 Datatype sendType, MemorySegment recvBuf, long[] recvCounts, long[] recvDispls,
                                 Datatype recvType) {
        int n = t.size();
        long[] sb = new long[n];
        long[] rb = new long[n];
        Datatype[] st = new Datatype[n];
        Datatype[] rt = new Datatype[n];
        for (int i = 0; i < n; i++) {
            sb[i] = blockBytes(sendDispls[i], sendType);
            rb[i] = blockBytes(recvDispls[i], recvType);
            st[i] = sendType;
            rt[i] = recvType;
        }
        alltoallw(t, sendBuf, sendCounts, sb, st, recvBuf, recvCounts, rb, rt);
    }

    /** Pairwise exchange with counts, byte displacements and datatypes per peer. */
    public static void alltoallw(Transport t, MemorySegment sendBuf, long[] sendCounts, long[] sendDisplsBytes,
                                 Datatype[] sendTypes, MemorySegment recvBuf, long[] recvCounts,
                                 long[] recvDisplsBytes, Datatype[] recvTypes) {
        int n = t.size();
        int r = t.rank();
        for (int i = 0; i < n; i++) {
            recvTypes[i].cursor(recvCounts[i], recvBuf, recvDisplsBytes[i]);
            sendTypes[i].cursor(sendCounts[i], sendBuf, sendDisplsBytes[i]);
        }
        for (int step = 0; step < n; step++) {
            int dst = (r + step) % n;
            int src = (r - step + n) % n;
            t.sendrecv(sendBuf, sendDisplsBytes[dst], sendCounts[dst], sendTypes[dst], dst,
                    recvBuf, recvDisplsBytes[src], recvCounts[src], recvTypes[src], src, CollTags.ALLTOALL);
        }
    }

    private static long blocks(long count, int n) {
        try {
            return Math.multiplyExact(count, (long) n);
        } catch (ArithmeticException e) {
            throw new MpiException(ErrorClass.ERR_COUNT, "count " + count + " for each of " + n + " ranks overflows 64 bits");
        }
    }

    private static long blockBytes(long count, Datatype type) {
        try {
            return Math.multiplyExact(count, type.extent());
        } catch (ArithmeticException e) {
            throw new MpiException(ErrorClass.ERR_COUNT, count + " extents of " + type + " overflow 64 bits");
        }
    }

    private static MemorySegment packed(MemorySegment typed, long count, Datatype type) {
        MemorySegment p = scratch(type.packSize(count));
        type.pack(count, typed, p);
        return p;
    }

    private static MemorySegment scratch(long bytes) {
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new MpiException(ErrorClass.ERR_COUNT, "reduction of " + bytes + " bytes exceeds the scratch limit of 2 GiB");
        }
        return MemorySegment.ofArray(new byte[(int) bytes]);
    }
}
