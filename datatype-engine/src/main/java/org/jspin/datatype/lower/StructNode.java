package org.jspin.datatype.lower;

import java.util.Arrays;

/**
 * A sequence of children, child m at byte {@code disps[m]}. Children are never bare blocks (those
 * are wrapped in one-instance vectors, so that every path ends in a leaf parent).
 */
public final class StructNode extends Node {
    /** Byte offset of each child. */
    public final long[] disps;
    /** The children, in type-map order. */
    public final Node[] children;
    /** {@code prefix[m]} = packed bytes of children before m. */
    public final long[] prefix;

    StructNode(long[] disps, Node[] children) {
        super(STRUCT, sizeOf(children), depthOf(children) + 1, min(disps, children), max(disps, children));
        this.disps = disps;
        this.children = children;
        this.prefix = new long[children.length];
        long p = 0;
        for (int m = 0; m < children.length; m++) {
            prefix[m] = p;
            p += children[m].size;
        }
    }

    private static long sizeOf(Node[] children) {
        long s = 0;
        for (Node c : children) {
            s += c.size;
        }
        return s;
    }

    private static long min(long[] disps, Node[] children) {
        long m = Long.MAX_VALUE;
        for (int i = 0; i < children.length; i++) {
            m = Math.min(m, Math.addExact(disps[i], children[i].minOffset()));
        }
        return m;
    }

    private static long max(long[] disps, Node[] children) {
        long m = Long.MIN_VALUE;
        for (int i = 0; i < children.length; i++) {
            m = Math.max(m, Math.addExact(disps[i], children[i].maxOffset()));
        }
        return m;
    }

    private static int depthOf(Node[] children) {
        int d = 0;
        for (Node c : children) {
            d = Math.max(d, c.depth);
        }
        return d;
    }

    /** @return the child holding packed byte {@code rel} of an instance */
    public int childAt(long rel) {
        return entryAt(prefix, rel);
    }

    @Override
    Node shift(long delta) {
        if (delta == 0) {
            return this;
        }
        long[] d = disps.clone();
        for (int m = 0; m < d.length; m++) {
            d[m] += delta;
        }
        return new StructNode(d, children);
    }

    @Override
    boolean sameShape(Node other) {
        if (!(other instanceof StructNode s) || !Arrays.equals(s.disps, disps)
                || s.children.length != children.length) {
            return false;
        }
        for (int m = 0; m < children.length; m++) {
            if (s.children[m] != children[m] && !s.children[m].sameShape(children[m])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return "struct(" + children.length + " children, " + size + " bytes)";
    }
}
