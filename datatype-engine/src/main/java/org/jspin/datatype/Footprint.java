package org.jspin.datatype;

/**
 * Accumulates the bounds of a type built from copies of older types: each group of copies is given by
 * the smallest and largest displacement at which a copy starts. The MPI rules follow: lb is the
 * least copy lb, ub the greatest copy ub, and the true bounds likewise over the true bounds. With no
 * copies at all the type is empty and every bound is zero.
 */
final class Footprint {
    private long size;
    private long lb = Long.MAX_VALUE;
    private long ub = Long.MIN_VALUE;
    private long trueLb = Long.MAX_VALUE;
    private long trueUb = Long.MIN_VALUE;
    private boolean any;

    /**
     * Adds {@code copies} copies of {@code old} whose displacements range over [minDisp, maxDisp].
     */
    Footprint add(long copies, long minDisp, long maxDisp, Datatype old) {
        if (copies == 0) {
            return this;
        }
        any = true;
        size = Args.add(size, Args.mul(copies, old.size(), "type size"), "type size");
        lb = Math.min(lb, Args.add(minDisp, old.lb(), "lower bound"));
        ub = Math.max(ub, Args.add(maxDisp, old.ub(), "upper bound"));
        trueLb = Math.min(trueLb, Args.add(minDisp, old.trueLb(), "true lower bound"));
        trueUb = Math.max(trueUb, Args.add(maxDisp, old.trueUb(), "true upper bound"));
        return this;
    }

    /**
     * Adds {@code count * blocklength} copies at {@code offset + i * stride + j * oldExtent}
     * (i below count, j below blocklength): the shape of vector, hvector and contiguous.
     */
    Footprint addStrided(long offset, long count, long stride, long blocklength, Datatype old) {
        long copies = Args.mul(count, blocklength, "element count");
        if (copies == 0) {
            return this;
        }
        long span = Args.mul(count - 1, stride, "extent");
        long inner = Args.mul(blocklength - 1, old.extent(), "extent");
        long min = Args.add(offset, Args.add(Math.min(0, span), Math.min(0, inner), "extent"), "extent");
        long max = Args.add(offset, Args.add(Math.max(0, span), Math.max(0, inner), "extent"), "extent");
        return add(copies, min, max, old);
    }

    /** Adds blocks of {@code blocklengths[k]} copies of {@code old} starting at byte {@code displacements[k]}. */
    Footprint addBlocks(long[] blocklengths, long[] displacements, Datatype old) {
        for (int k = 0; k < blocklengths.length; k++) {
            addStrided(displacements[k], 1, 0, blocklengths[k], old);
        }
        return this;
    }

    /** @return {@code displacements[k] * unit} for every k, overflow-checked */
    static long[] scaled(long[] displacements, long unit) {
        long[] bytes = new long[displacements.length];
        for (int k = 0; k < bytes.length; k++) {
            bytes[k] = Args.mul(displacements[k], unit, "displacement in bytes");
        }
        return bytes;
    }

    Bounds bounds() {
        if (!any) {
            return new Bounds(0, 0, 0, 0, 0);
        }
        Args.add(ub, -lb, "extent");
        Args.add(trueUb, -trueLb, "true extent");
        return new Bounds(size, lb, ub, trueLb, trueUb);
    }

    /** size, lb, ub, true lb and true ub of a type, in bytes. */
    record Bounds(long size, long lb, long ub, long trueLb, long trueUb) {
        Bounds withMarkers(long newLb, long newUb) {
            return new Bounds(size, newLb, newUb, trueLb, trueUb);
        }
    }
}
