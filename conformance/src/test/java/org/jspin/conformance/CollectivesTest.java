package org.jspin.conformance;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.Order;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.Comm;
import org.jspin.mpi.op.Ops;
import org.jspin.mpi.op.ReduceOp;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every collective on 1 to 5 ranks, each compared with a serial computation of what it must give. */
class CollectivesTest {
    static Stream<Arguments> ranks() {
        return Targets.withRanks(1, 2, 3, 4, 5);
    }

    // ---- barrier, bcast -------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} {1} ranks")
    @MethodSource("ranks")
    void barrierAndBcast(Target target, int n) {
        int rows = 9;
        int cols = 7;
        Datatype column = Datatype.vector(rows, 1, cols, Datatype.DOUBLE).commit();
        target.run(n, mpi -> {
            Comm w = mpi.world();
            for (int i = 0; i < 3; i++) {
                w.barrier();
            }
            for (int root = 0; root < n; root++) {
                for (long size : new long[] {37, 40_000}) { // eager, rendezvous (default limit)
                    MemorySegment buf = w.rank() == root ? Bytes.pattern(size, root) : Bytes.sentinels(size);
                    w.bcast(buf, size, Datatype.BYTE, root);
                    Bytes.assertSameBytes(Bytes.pattern(size, root), buf, "bcast of " + size + " B from " + root);
                }
                // one column of a matrix, in a vector type: the rest of the matrix stays as it was
                int col = root % cols;
                long matrixBytes = 8L * rows * cols;
                MemorySegment m = w.rank() == root ? Bytes.pattern(matrixBytes, 77 + root) : Bytes.sentinels(matrixBytes);
                w.bcast(m.asSlice(8L * col), 1, column, root);
                MemorySegment expected = w.rank() == root ? Bytes.pattern(matrixBytes, 77 + root)
                        : Bytes.sentinels(matrixBytes);
                MemorySegment source = Bytes.pattern(matrixBytes, 77 + root);
                for (int r = 0; r < rows; r++) {
                    long at = 8L * (r * cols + col);
                    MemorySegment.copy(source, at, expected, at, 8);
                }
                Bytes.assertSameBytes(expected, m, "bcast of column " + col + " from " + root);
            }
        });
    }

    // ---- reduce, allreduce ----------------------------------------------------------------------

    private static final List<Datatype> NUMERIC = List.of(Datatype.INT, Datatype.LONG, Datatype.FLOAT, Datatype.DOUBLE);
    private static final List<ReduceOp> OPS = List.of(Ops.SUM, Ops.MIN, Ops.MAX, Ops.PROD);
    private static final double[] FACTORS = {0.5, 1, 1.5, 2, -1, -0.75, 1.25, -2};

    /**
     * Inputs whose reduction is exact in any order (integers wrap, float sums of quarters, products
     * of a few short binary fractions), so the serial left fold is the only right answer.
     */
    private static MemorySegment input(Datatype t, ReduceOp op, int rank, int count, long seed) {
        Random rnd = new Random(seed * 131 + rank * 7919L + t.size() * 31 + op.name().hashCode());
        MemorySegment s = MemorySegment.ofArray(new byte[(int) (count * t.size())]);
        for (int i = 0; i < count; i++) {
            double d = op == Ops.SUM ? (rnd.nextInt(513) - 256) * 0.25
                    : op == Ops.PROD ? FACTORS[rnd.nextInt(FACTORS.length)] : rnd.nextGaussian() * 1000;
            if (t == Datatype.INT) {
                s.set(JAVA_INT_UNALIGNED, 4L * i, rnd.nextInt());
            } else if (t == Datatype.LONG) {
                s.set(JAVA_LONG_UNALIGNED, 8L * i, rnd.nextLong());
            } else if (t == Datatype.FLOAT) {
                s.set(JAVA_FLOAT_UNALIGNED, 4L * i, (float) d);
            } else {
                s.set(JAVA_DOUBLE_UNALIGNED, 8L * i, d);
            }
        }
        return s;
    }

    /** The serial reduction: ((in_0 op in_1) op in_2) ... in rank order. */
    private static MemorySegment serial(Datatype t, ReduceOp op, int n, int count, long seed) {
        MemorySegment acc = input(t, op, 0, count, seed);
        for (int r = 1; r < n; r++) {
            MemorySegment in = input(t, op, r, count, seed);
            for (int i = 0; i < count; i++) {
                if (t == Datatype.INT) {
                    long o = 4L * i;
                    int a = acc.get(JAVA_INT_UNALIGNED, o);
                    int b = in.get(JAVA_INT_UNALIGNED, o);
                    acc.set(JAVA_INT_UNALIGNED, o, op == Ops.SUM ? a + b : op == Ops.PROD ? a * b
                            : op == Ops.MIN ? Math.min(a, b) : Math.max(a, b));
                } else if (t == Datatype.LONG) {
                    long o = 8L * i;
                    long a = acc.get(JAVA_LONG_UNALIGNED, o);
                    long b = in.get(JAVA_LONG_UNALIGNED, o);
                    acc.set(JAVA_LONG_UNALIGNED, o, op == Ops.SUM ? a + b : op == Ops.PROD ? a * b
                            : op == Ops.MIN ? Math.min(a, b) : Math.max(a, b));
                } else if (t == Datatype.FLOAT) {
                    long o = 4L * i;
                    float a = acc.get(JAVA_FLOAT_UNALIGNED, o);
                    float b = in.get(JAVA_FLOAT_UNALIGNED, o);
                    acc.set(JAVA_FLOAT_UNALIGNED, o, op == Ops.SUM ? a + b : op == Ops.PROD ? a * b
                            : op == Ops.MIN ? Math.min(a, b) : Math.max(a, b));
                } else {
                    long o = 8L * i;
                    double a = acc.get(JAVA_DOUBLE_UNALIGNED, o);
                    double b = in.get(JAVA_DOUBLE_UNALIGNED, o);
                    acc.set(JAVA_DOUBLE_UNALIGNED, o, op == Ops.SUM ? a + b : op == Ops.PROD ? a * b
                            : op == Ops.MIN ? Math.min(a, b) : Math.max(a, b));
                }
            }
        }
        return acc;
    }

    @ParameterizedTest(name = "{0} {1} ranks")
    @MethodSource("ranks")
    void reduceAndAllreduceOnNamedTypes(Target target, int n) {
        long seed = 2024;
        target.run(n, mpi -> {
            Comm w = mpi.world();
            for (Datatype t : NUMERIC) {
                for (ReduceOp op : OPS) {
                    for (int count : new int[] {1, 7, 3000}) { // 3000 doubles: beyond the eager limit
                        String what = op.name() + " on " + count + " x " + t;
                        MemorySegment in = input(t, op, w.rank(), count, seed + count);
                        MemorySegment expected = serial(t, op, n, count, seed + count);
                        MemorySegment out = Bytes.sentinels(count * t.size());
                        w.allreduce(in, out, count, t, op);
                        Bytes.assertSameBytes(expected, out, "allreduce " + what);
                        Bytes.assertSameBytes(input(t, op, w.rank(), count, seed + count), in, "allreduce input kept");
                        if (count == 3000) {
                            continue;
                        }
                        for (int root = 0; root < n; root++) {
                            MemorySegment r = Bytes.sentinels(count * t.size());
                            w.reduce(in, r, count, t, op, root);
                            Bytes.assertSameBytes(w.rank() == root ? expected : Bytes.sentinels(count * t.size()), r,
                                    "reduce " + what + " to root " + root);
                        }
                    }
                }
            }
            // inexact sums: every rank still gets the same bits
            MemorySegment noisy = MemorySegment.ofArray(new double[64]);
            Random rnd = new Random(w.rank() + 5L);
            for (int i = 0; i < 64; i++) {
                noisy.set(JAVA_DOUBLE_UNALIGNED, 8L * i, rnd.nextDouble() * Math.pow(10, rnd.nextInt(12) - 6));
            }
            MemorySegment sum = MemorySegment.ofArray(new double[64]);
            w.allreduce(noisy, sum, 64, Datatype.DOUBLE, Ops.SUM);
            MemorySegment all = MemorySegment.ofArray(new double[64 * n]);
            w.allgather(sum, 64, Datatype.DOUBLE, all, 64, Datatype.DOUBLE);
            for (int r = 0; r < n; r++) {
                Bytes.assertSameBytes(sum, all.asSlice(512L * r, 512), "allreduce bits on rank " + r);
            }
        });
    }

    /** 2x2 matrix product on 4 doubles: associative, not commutative. inout = in x inout. */
    private static final ReduceOp MATMUL = Ops.user("matmul", (in, inout, count, type) -> {
        for (long j = 0; j < count; j++) {
            long o = 32 * j;
            double a = in.get(JAVA_DOUBLE_UNALIGNED, o);
            double b = in.get(JAVA_DOUBLE_UNALIGNED, o + 8);
            double c = in.get(JAVA_DOUBLE_UNALIGNED, o + 16);
            double d = in.get(JAVA_DOUBLE_UNALIGNED, o + 24);
            double e = inout.get(JAVA_DOUBLE_UNALIGNED, o);
            double f = inout.get(JAVA_DOUBLE_UNALIGNED, o + 8);
            double g = inout.get(JAVA_DOUBLE_UNALIGNED, o + 16);
            double h = inout.get(JAVA_DOUBLE_UNALIGNED, o + 24);
            inout.set(JAVA_DOUBLE_UNALIGNED, o, a * e + b * g);
            inout.set(JAVA_DOUBLE_UNALIGNED, o + 8, a * f + b * h);
            inout.set(JAVA_DOUBLE_UNALIGNED, o + 16, c * e + d * g);
            inout.set(JAVA_DOUBLE_UNALIGNED, o + 24, c * f + d * h);
        }
    }, false);

    private static final ReduceOp XOR = Ops.user("xor", (in, inout, count, type) -> {
        for (long j = 0; j < count; j++) {
            inout.set(JAVA_LONG_UNALIGNED, 8 * j, in.get(JAVA_LONG_UNALIGNED, 8 * j) ^ inout.get(JAVA_LONG_UNALIGNED, 8 * j));
        }
    }, true);

    private static double[] matrices(int rank, int count) {
        Random rnd = new Random(991 + rank);
        double[] m = new double[4 * count];
        for (int i = 0; i < m.length; i++) {
            m[i] = rnd.nextInt(4) - 1; // -1..2: products of 5 stay small integers, exact
        }
        return m;
    }

    private static double[] unsignedZeros(double[] a) {
        return Arrays.stream(a).map(x -> x + 0.0).toArray();
    }

    private static double[] product(double[] x, double[] y) {
        double[] out = new double[x.length];
        MemorySegment in = MemorySegment.ofArray(x.clone());
        MemorySegment inout = MemorySegment.ofArray(y.clone());
        MATMUL.apply(in, inout, x.length / 4, Datatype.contiguous(4, Datatype.DOUBLE).commit());
        MemorySegment.copy(inout, JAVA_DOUBLE_UNALIGNED, 0, out, 0, out.length);
        return out;
    }

    @ParameterizedTest(name = "{0} {1} ranks")
    @MethodSource("ranks")
    void userOperators(Target target, int n) {
        Datatype mat = Datatype.contiguous(4, Datatype.DOUBLE).commit();
        int count = 3;
        double[] expected = matrices(0, count);
        double[] reversed = matrices(0, count);
        for (int r = 1; r < n; r++) {
            expected = product(expected, matrices(r, count)); // M0 x M1 x ... in rank order
            reversed = product(matrices(r, count), reversed);
        }
        if (n > 1) {
            assertFalse(Arrays.equals(expected, reversed), "the matrices must not commute, or order goes unchecked");
        }
        double[] want = expected;
        target.run(n, mpi -> {
            Comm w = mpi.world();
            double[] mine = matrices(w.rank(), count);
            double[] out = new double[4 * count];
            w.allreduce(MemorySegment.ofArray(mine), MemorySegment.ofArray(out), count, mat, MATMUL);
            // integer-valued products are exact in any grouping; only the sign of a zero may differ
            assertArrayEquals(unsignedZeros(want), unsignedZeros(out), "allreduce of a non-commutative operator, rank order");
            for (int root = 0; root < n; root++) {
                double[] r = new double[4 * count];
                w.reduce(MemorySegment.ofArray(mine), MemorySegment.ofArray(r), count, mat, MATMUL, root);
                if (w.rank() == root) {
                    assertArrayEquals(unsignedZeros(want), unsignedZeros(r),
                            "reduce of a non-commutative operator to root " + root);
                }
            }
            long[] bits = {w.rank() * 0x1234_5678_9ABCL + 1, ~(long) w.rank()};
            long[] x = new long[2];
            w.allreduce(MemorySegment.ofArray(bits), MemorySegment.ofArray(x), 2, Datatype.LONG, XOR);
            long[] serial = new long[2];
            for (int r = 0; r < n; r++) {
                serial[0] ^= r * 0x1234_5678_9ABCL + 1;
                serial[1] ^= ~(long) r;
            }
            assertArrayEquals(serial, x, "allreduce of a commutative user operator");
        });
    }

    // ---- gather, scatter --------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} {1} ranks")
    @MethodSource("ranks")
    void gatherAndScatter(Target target, int n) {
        target.run(n, mpi -> {
            Comm w = mpi.world();
            int me = w.rank();
            for (int root = 0; root < n; root++) {
                for (int k : new int[] {5, 5000}) {
                    int[] send = IntStream.range(0, k).map(i -> me * 100_000 + i).toArray();
                    int[] recv = new int[k * n];
                    w.gather(MemorySegment.ofArray(send), k, Datatype.INT, MemorySegment.ofArray(recv), k, Datatype.INT,
                            root);
                    if (me == root) {
                        for (int i = 0; i < k * n; i++) {
                            assertEquals((i / k) * 100_000 + i % k, recv[i], "gather of " + k + " at " + i);
                        }
                    } else {
                        assertEquals(0, Arrays.stream(recv).filter(v -> v != 0).count(), "a non-root buffer is untouched");
                    }
                    int base = root * 7;
                    int[] all = IntStream.range(0, k * n).map(i -> base + i).toArray();
                    int[] part = new int[k];
                    w.scatter(MemorySegment.ofArray(all), k, Datatype.INT, MemorySegment.ofArray(part), k, Datatype.INT,
                            root);
                    for (int i = 0; i < k; i++) {
                        assertEquals(root * 7 + me * k + i, part[i], "scatter of " + k + " at " + i);
                    }
                }
                // gather rows into the columns of the root's matrix (a resized vector receive type)
                int m = 6;
                Datatype col = Datatype.resized(0, 8, Datatype.vector(m, 1, n, Datatype.DOUBLE)).commit();
                double[] row = IntStream.range(0, m).mapToDouble(i -> me + i / 8.0).toArray();
                double[] matrix = new double[m * n];
                w.gather(MemorySegment.ofArray(row), m, Datatype.DOUBLE, MemorySegment.ofArray(matrix), 1, col, root);
                if (me == root) {
                    for (int i = 0; i < m; i++) {
                        for (int j = 0; j < n; j++) {
                            assertEquals(j + i / 8.0, matrix[i * n + j], "matrix[" + i + "][" + j + "]");
                        }
                    }
                }
                // and scatter the columns back as rows
                double[] back = new double[m];
                w.scatter(MemorySegment.ofArray(matrix), 1, col, MemorySegment.ofArray(back), m, Datatype.DOUBLE, root);
                // the root's matrix holds every rank's row as a column: each gets its own row back
                assertArrayEquals(row, back, "scatter of column " + me + " from root " + root);
            }
        });
    }

    @ParameterizedTest(name = "{0} {1} ranks")
    @MethodSource("ranks")
    void gathervAndScatterv(Target target, int n) {
        // rank i contributes i+1 ints; blocks laid out in reverse rank order with one-int gaps
        long[] counts = new long[n];
        long[] displs = new long[n];
        long at = 0;
        for (int i = n - 1; i >= 0; i--) {
            counts[i] = 2L * i + 1;
            displs[i] = at;
            at += counts[i] + 1;
        }
        long total = at;
        target.run(n, mpi -> {
            Comm w = mpi.world();
            int me = w.rank();
            for (int root = 0; root < n; root++) {
                int[] send = IntStream.range(0, (int) counts[me]).map(i -> me * 1000 + i).toArray();
                int[] recv = new int[(int) total];
                Arrays.fill(recv, -1);
                w.gatherv(MemorySegment.ofArray(send), counts[me], Datatype.INT, MemorySegment.ofArray(recv), counts,
                        displs, Datatype.INT, root);
                if (me == root) {
                    int[] expected = new int[(int) total];
                    Arrays.fill(expected, -1);
                    for (int i = 0; i < n; i++) {
                        for (int j = 0; j < counts[i]; j++) {
                            expected[(int) displs[i] + j] = i * 1000 + j;
                        }
                    }
                    assertArrayEquals(expected, recv, "gatherv at root " + root);
                }
                int base = root * 100_000;
                int[] all = IntStream.range(0, (int) total).map(i -> base + i).toArray();
                int[] part = new int[(int) counts[me] + 2];
                Arrays.fill(part, -1);
                w.scatterv(MemorySegment.ofArray(all), counts, displs, Datatype.INT, MemorySegment.ofArray(part),
                        counts[me], Datatype.INT, root);
                for (int j = 0; j < part.length; j++) {
                    assertEquals(j < counts[me] ? root * 100_000 + (int) displs[me] + j : -1, part[j],
                            "scatterv from " + root + " at " + j);
                }
            }
        });
    }

    // ---- allgather, alltoall(v,w) -------------------------------------------------------------------

    @ParameterizedTest(name = "{0} {1} ranks")
    @MethodSource("ranks")
    void allgatherAndAlltoall(Target target, int n) {
        target.run(n, mpi -> {
            Comm w = mpi.world();
            int r = w.rank();
            for (int k : new int[] {3, 5000}) {
                int[] mine = IntStream.range(0, k).map(i -> r * 10_000 + i).toArray();
                int[] all = new int[k * n];
                w.allgather(MemorySegment.ofArray(mine), k, Datatype.INT, MemorySegment.ofArray(all), k, Datatype.INT);
                for (int i = 0; i < k * n; i++) {
                    assertEquals((i / k) * 10_000 + i % k, all[i], "allgather of " + k + " at " + i);
                }
            }
            int k = 2;
            int[] send = new int[k * n];
            for (int j = 0; j < n; j++) {
                for (int x = 0; x < k; x++) {
                    send[j * k + x] = r * 1000 + j * 10 + x;
                }
            }
            int[] recv = new int[k * n];
            w.alltoall(MemorySegment.ofArray(send), k, Datatype.INT, MemorySegment.ofArray(recv), k, Datatype.INT);
            for (int i = 0; i < n; i++) {
                for (int x = 0; x < k; x++) {
                    assertEquals(i * 1000 + r * 10 + x, recv[i * k + x], "alltoall block from " + i);
                }
            }
            // alltoallv: r sends (r + j) % 3 + 1 ints to j; blocks received in reverse order, gaps of one
            long[] sc = new long[n];
            long[] sd = new long[n];
            long[] rc = new long[n];
            long[] rd = new long[n];
            long s = 0;
            for (int j = 0; j < n; j++) {
                sc[j] = (r + j) % 3 + 1;
                sd[j] = s;
                s += sc[j];
            }
            long t = 0;
            for (int i = n - 1; i >= 0; i--) {
                rc[i] = (i + r) % 3 + 1;
                rd[i] = t;
                t += rc[i] + 1;
            }
            int[] vs = new int[(int) s];
            for (int j = 0; j < n; j++) {
                for (int x = 0; x < sc[j]; x++) {
                    vs[(int) sd[j] + x] = r * 1000 + j * 10 + x;
                }
            }
            int[] vr = new int[(int) t];
            Arrays.fill(vr, -1);
            w.alltoallv(MemorySegment.ofArray(vs), sc, sd, Datatype.INT, MemorySegment.ofArray(vr), rc, rd, Datatype.INT);
            int[] expected = new int[(int) t];
            Arrays.fill(expected, -1);
            for (int i = 0; i < n; i++) {
                for (int x = 0; x < rc[i]; x++) {
                    expected[(int) rd[i] + x] = i * 1000 + r * 10 + x;
                }
            }
            assertArrayEquals(expected, vr, "alltoallv on rank " + r);
        });
    }

    /**
     * The FFT2D transpose: rows distributed over the ranks, each rank sends a b x b block of its
     * rows to each peer (a subarray type per peer) and receives each peer's block transposed into
     * its own rows (a column-walking type per peer), so that afterwards it holds its rows of the
     * transposed matrix.
     */
    @ParameterizedTest(name = "{0} {1} ranks")
    @MethodSource("ranks")
    void alltoallwTransposesAMatrix(Target target, int n) {
        int size = 60; // divisible by 1..5
        int b = size / n;
        target.run(n, mpi -> {
            Comm w = mpi.world();
            int r = w.rank();
            double[] a = new double[b * size];
            for (int lr = 0; lr < b; lr++) {
                for (int c = 0; c < size; c++) {
                    a[lr * size + c] = (r * b + lr) * size + c + 0.5; // global element (row, col)
                }
            }
            long[] counts = new long[n];
            long[] sendDispls = new long[n];
            long[] recvDispls = new long[n];
            Datatype[] sendTypes = new Datatype[n];
            Datatype[] recvTypes = new Datatype[n];
            Datatype walkDown = Datatype.resized(0, 8, Datatype.vector(b, 1, size, Datatype.DOUBLE));
            Datatype transposed = Datatype.contiguous(b, walkDown).commit();
            for (int j = 0; j < n; j++) {
                counts[j] = 1;
                sendTypes[j] = Datatype.subarray(new long[] {b, size}, new long[] {b, b}, new long[] {0, (long) j * b},
                        Order.C, Datatype.DOUBLE).commit();
                recvTypes[j] = transposed;
                recvDispls[j] = 8L * j * b;
            }
            double[] t = new double[b * size];
            Arrays.fill(t, Double.NaN);
            w.alltoallw(MemorySegment.ofArray(a), counts, sendDispls, sendTypes, MemorySegment.ofArray(t), counts,
                    recvDispls, recvTypes);
            for (int lr = 0; lr < b; lr++) {
                for (int c = 0; c < size; c++) {
                    double want = c * size + (r * b + lr) + 0.5; // transposed: element (c, row)
                    assertEquals(want, t[lr * size + c], "transposed[" + (r * b + lr) + "][" + c + "] on rank " + r);
                }
            }
            // per-peer types of different shapes: j+1 contiguous ints out, r+1 ints at stride 2 in
            long[] sc = new long[n];
            long[] sdb = new long[n];
            long[] rc = new long[n];
            long[] rdb = new long[n];
            Datatype[] st = new Datatype[n];
            Datatype[] rt = new Datatype[n];
            int[] out = new int[n * (n + 1) / 2];
            int pos = 0;
            for (int j = 0; j < n; j++) {
                sc[j] = 1;
                st[j] = Datatype.contiguous(j + 1, Datatype.INT).commit();
                sdb[j] = 4L * pos;
                for (int x = 0; x <= j; x++) {
                    out[pos++] = r * 100 + j * 10 + x;
                }
                rc[j] = r + 1;
                rt[j] = Datatype.resized(0, 8, Datatype.INT).commit();
                rdb[j] = 8L * (r + 1) * j;
            }
            int[] in = new int[2 * (r + 1) * n];
            Arrays.fill(in, -1);
            w.alltoallw(MemorySegment.ofArray(out), sc, sdb, st, MemorySegment.ofArray(in), rc, rdb, rt);
            for (int i = 0; i < n; i++) {
                for (int x = 0; x <= r; x++) {
                    assertEquals(i * 100 + r * 10 + x, in[2 * ((r + 1) * i + x)], "from " + i + " element " + x);
                    assertEquals(-1, in[2 * ((r + 1) * i + x) + 1], "gap after element " + x + " from " + i);
                }
            }
        });
    }

    // ---- split, dup ------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} {1} ranks")
    @MethodSource("ranks")
    void splitAndDup(Target target, int n) {
        target.run(n, mpi -> {
            Comm w = mpi.world();
            int me = w.rank();
            boolean out = n >= 3 && me == n - 1;
            int color = out ? Comm.UNDEFINED : me % 2;
            Comm sub = w.split(color, -me); // keys reverse the order
            if (out) {
                assertNull(sub, "color UNDEFINED gives no communicator");
            } else {
                int[] members = IntStream.range(0, n).filter(r -> !(n >= 3 && r == n - 1) && r % 2 == color)
                        .boxed().sorted((x, y) -> Integer.compare(y, x)).mapToInt(Integer::intValue).toArray();
                assertNotNull(sub);
                assertEquals(members.length, sub.size());
                for (int i = 0; i < members.length; i++) {
                    assertEquals(members[i], sub.worldRank(i), "member " + i + " of color " + color);
                    if (members[i] == me) {
                        assertEquals(i, sub.rank());
                    }
                }
                long[] sum = new long[1];
                sub.allreduce(MemorySegment.ofArray(new long[] {me}), MemorySegment.ofArray(sum), 1, Datatype.LONG,
                        Ops.SUM);
                assertEquals(Arrays.stream(members).sum(), sum[0], "allreduce within color " + color);
                int[] v = {sub.rank() == 0 ? me : -1};
                sub.bcast(MemorySegment.ofArray(v), 1, Datatype.INT, 0);
                assertEquals(members[0], v[0]);
                sub.free();
                MpiException e = assertThrows(MpiException.class, sub::barrier);
                assertEquals(ErrorClass.ERR_COMM, e.errorClass());
            }
            // equal keys: the old order decides
            Comm thirds = w.split(me % 3, 0);
            int[] group = IntStream.range(0, n).filter(r -> r % 3 == me % 3).toArray();
            assertEquals(group.length, thirds.size());
            for (int i = 0; i < group.length; i++) {
                assertEquals(group[i], thirds.worldRank(i));
            }
            Comm dup = w.dup();
            assertEquals(n, dup.size());
            assertEquals(me, dup.rank());
            int[] ranks = new int[n];
            dup.allgather(MemorySegment.ofArray(new int[] {me * me}), 1, Datatype.INT, MemorySegment.ofArray(ranks), 1,
                    Datatype.INT);
            assertArrayEquals(IntStream.range(0, n).map(x -> x * x).toArray(), ranks, "allgather on the dup");
            Comm dupOfDup = dup.dup();
            dupOfDup.barrier();
        });
    }
}
