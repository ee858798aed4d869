package org.jspin.datatype.lower;

import java.util.Arrays;

import org.jspin.datatype.kernel.ListKernel;

/**
 * Contiguous runs: run e is {@code lens[e]} bytes at {@code disps[e]}. A leaf parent; {@link #prefix}
 * holds each run's packed offset so that seeking is a binary search. Runs of one length (an
 * indexed-block type) get a {@link #listed} kernel specialised to that length.
 */
public final class RunsNode extends Node {
    /** Byte offset of each run. */
    public final long[] disps;
    /** Byte length of each run (all positive). */
    public final long[] lens;
    /** {@code prefix[e]} = sum of {@code lens[0..e)}. */
    public final long[] prefix;
    /** Length shared by every run, or 0 if the lengths differ. */
    public final long uniformLen;
    /**
     * Copies runs of the uniform length (null if lengths differ). Set at commit before the tree is
     * published, never changed after.
     */
    private ListKernel listed;

    RunsNode(long[] disps, long[] lens) {
        super(RUNS, sum(lens), 1, min(disps), max(disps, lens));
        this.disps = disps;
        this.lens = lens;
        this.prefix = new long[lens.length];
        long p = 0;
        boolean uniform = true;
        for (int e = 0; e < lens.length; e++) {
            prefix[e] = p;
            p += lens[e];
            uniform &= lens[e] == lens[0];
        }
        this.uniformLen = uniform ? lens[0] : 0;
    }

    private static long min(long[] disps) {
        long m = Long.MAX_VALUE;
        for (long d : disps) {
            m = Math.min(m, d);
        }
        return m;
    }

    private static long max(long[] disps, long[] lens) {
        long m = Long.MIN_VALUE;
        for (int e = 0; e < disps.length; e++) {
            m = Math.max(m, Math.addExact(disps[e], lens[e]));
        }
        return m;
    }

    private static long sum(long[] a) {
        long s = 0;
        for (long v : a) {
            s += v;
        }
        return s;
    }

    /** @return the equal-length kernel (null if the run lengths differ) */
    public ListKernel listed() {
        return listed;
    }

    void setListed(ListKernel k) {
        listed = k;
    }

    /** @return the run holding packed byte {@code rel} of an instance (0 &lt;= rel &lt; size) */
    public int runAt(long rel) {
        return entryAt(prefix, rel);
    }

    @Override
    Node shift(long delta) {
        if (delta == 0) {
            return this;
        }
        long[] d = disps.clone();
        for (int e = 0; e < d.length; e++) {
            d[e] += delta;
        }
        return new RunsNode(d, lens);
    }

    @Override
    boolean sameShape(Node other) {
        return other instanceof RunsNode r && Arrays.equals(r.disps, disps) && Arrays.equals(r.lens, lens);
    }

    @Override
    public String toString() {
        return "runs(" + disps.length + " runs, " + size + " bytes)";
    }
}
