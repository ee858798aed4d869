package org.jspin.datatype;

/**
 * Accumulates the bounds of a type built from copies of older types: each group of copies is given by
 * the smallest and largest displacement at which a copy starts. The rules are the MPI standard's
 * type-map definitions with its explicit lb/ub markers (set by {@code resized} and {@code subarray}):
 * if any copy carries markers, lb is the least marker lb and ub the greatest marker ub, and the other
 * copies do not count; otherwise lb and ub are the least and greatest bounds of the copies. The true
 * bounds range over data only. A copy of a type with neither data nor markers has no entries and adds
 * nothing; with no entries at all the type is empty and every bound is zero.
 */
final class Footprint {
    private long size;
    private long plainLb = Long.MAX_VALUE;
    private long plainUb = Long.MIN_VALUE;
    private long markedLb = Long.MAX_VALUE;
    private long markedUb = Long.MIN_VALUE;
    private boolean marked;
    private long trueLb = Long.MAX_VALUE;
    private long trueUb = Long.MIN_VALUE;
    private boolean data;

    /**
     * Adds {@code copies} copies of {@code old} whose displacements range over [minDisp, maxDisp].
     */
    Footprint add(long copies, long minDisp, long maxDisp, Datatype old) {
        boolean hasData = old.size() > 0;
        if (copies == 0 || (!hasData && !old.hasExplicitBounds())) {
            return this;
        }
        size = Args.add(size, Args.mul(copies, old.size(), "type size"), "type size");
        long lb = Args.add(minDisp, old.lb(), "lower bound");
        long ub = Args.add(maxDisp, old.ub(), "upper bound");
        if (old.hasExplicitBounds()) {
            marked = true;
            markedLb = Math.min(markedLb, lb);
            markedUb = Math.max(markedUb, ub);
        } else {
            plainLb = Math.min(plainLb, lb);
            plainUb = Math.max(plainUb, ub);
        }
        if (hasData) {
            data = true;
            trueLb = Math.min(trueLb, Args.add(minDisp, old.trueLb(), "true lower bound"));
            trueUb = Math.max(trueUb, Args.add(maxDisp, old.trueUb(), "true upper bound"));
        }
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
        long lb = marked ? markedLb : plainLb;
        long ub = marked ? markedUb : plainUb;
        if (!marked && !data) {
            lb = 0;
            ub = 0;
        }
        long tlb = data ? trueLb : 0;
        long tub = data ? trueUb : 0;
        Args.add(ub, -lb, "extent");
        Args.add(tub, -tlb, "true extent");
        return new Bounds(size, lb, ub, tlb, tub, marked);
    }

    /**
     * size, lb, ub, true lb and true ub of a type, in bytes, and whether lb and ub are explicit
     * markers (set by resized or subarray, directly or in a copy).
     */
    record Bounds(long size, long lb, long ub, long trueLb, long trueUb, boolean explicit) {
        Bounds(long size, long lb, long ub, long trueLb, long trueUb) {
            this(size, lb, ub, trueLb, trueUb, false);
        }

        Bounds withMarkers(long newLb, long newUb) {
            return new Bounds(size, newLb, newUb, trueLb, trueUb, true);
        }
    }
}
