package org.jspin.datatype.lower;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds lowered nodes in normal form. Each factory simplifies as it builds, so a tree assembled
 * bottom-up is normal: empty parts vanish ({@code null} stands for "no bytes"), contiguous pieces
 * merge into blocks, nested vectors whose outer stride spans the inner one collapse into one,
 * regular runs and regular structs become vectors, single-instance wrappers disappear and nested
 * structs are inlined. Every rewrite keeps the type map and its order.
 */
final class Normalizer {
    private Normalizer() {
    }

    static Node block(long offset, long len) {
        return len == 0 ? null : new BlockNode(offset, len);
    }

    /** {@code count} copies of {@code child}, k-th at {@code offset + k * stride}. */
    static Node vector(long offset, long count, long stride, Node child) {
        if (child == null || count == 0) {
            return null;
        }
        if (count == 1) {
            return child.shift(offset);
        }
        if (child instanceof BlockNode b && stride == b.len) {
            return new BlockNode(offset + b.offset, Math.multiplyExact(count, b.len));
        }
        if (child instanceof VectorNode v && spans(v, stride)) {
            return vector(offset + v.offset, Math.multiplyExact(count, v.count), v.stride, v.child);
        }
        return new VectorNode(offset, count, stride, child);
    }

    /** Whether {@code stride} equals {@code v.count * v.stride} (computed without overflowing). */
    private static boolean spans(VectorNode v, long stride) {
        long product;
        try {
            product = Math.multiplyExact(v.count, v.stride);
        } catch (ArithmeticException e) {
            return false; // no 64-bit stride can equal it
        }
        return product == stride;
    }

    /**
     * Contiguous runs {@code lens[e]} bytes at {@code disps[e]}, in order. Neighbouring runs merge
     * when the second starts where the first ends, except among runs of one length (a random index
     * list), where the occasional merge would cost the equal-length kernel more than it saves.
     */
    static Node runs(long[] disps, long[] lens) {
        boolean uniform = true;
        for (int e = 1; e < lens.length && uniform; e++) {
            uniform = lens[e] == lens[0];
        }
        long[] d = new long[disps.length];
        long[] l = new long[disps.length];
        int n = 0;
        boolean merged = false;
        for (int e = 0; e < disps.length; e++) {
            if (lens[e] == 0) {
                continue;
            }
            if (n > 0 && d[n - 1] + l[n - 1] == disps[e]) {
                merged = true;
                l[n - 1] += lens[e];
            } else {
                d[n] = disps[e];
                l[n] = lens[e];
                n++;
            }
        }
        if (n == 0) {
            return null;
        }
        if (n == 1) {
            return new BlockNode(d[0], l[0]);
        }
        boolean regular = true;
        long step = d[1] - d[0];
        for (int e = 1; e < n && regular; e++) {
            regular = l[e] == l[0] && d[e] - d[e - 1] == step;
        }
        if (regular) {
            return vector(d[0], n, step, new BlockNode(0, l[0]));
        }
        if (uniform && merged && lens[0] > 0) {
            return new RunsNode(disps.clone(), lens.clone());
        }
        return new RunsNode(Arrays.copyOf(d, n), Arrays.copyOf(l, n));
    }

    /** {@code counts[e]} copies of {@code child} from {@code disps[e]}, {@code stride} apart. */
    static Node indexed(long[] disps, long[] counts, long stride, Node child) {
        if (child == null) {
            return null;
        }
        if (child instanceof BlockNode b && stride == b.len) {
            long[] d = new long[disps.length];
            long[] l = new long[disps.length];
            for (int e = 0; e < d.length; e++) {
                d[e] = disps[e] + b.offset;
                l[e] = Math.multiplyExact(counts[e], b.len);
            }
            return runs(d, l);
        }
        Node[] parts = new Node[disps.length];
        for (int e = 0; e < parts.length; e++) {
            parts[e] = vector(0, counts[e], stride, child);
        }
        return struct(disps, parts);
    }

    /** Children in order, child m at {@code disps[m]}. */
    static Node struct(long[] disps, Node[] children) {
        List<Long> ds = new ArrayList<>();
        List<Node> cs = new ArrayList<>();
        for (int m = 0; m < children.length; m++) {
            Node c = children[m];
            if (c == null) {
                continue;
            }
            if (c instanceof StructNode s) { // inline nested structs
                for (int i = 0; i < s.children.length; i++) {
                    ds.add(disps[m] + s.disps[i]);
                    cs.add(unwrap(s.children[i]));
                }
            } else {
                ds.add(disps[m]);
                cs.add(c);
            }
        }
        int n = cs.size();
        if (n == 0) {
            return null;
        }
        if (n == 1) {
            return cs.get(0).shift(ds.get(0));
        }
        boolean allBlocks = true;
        for (Node c : cs) {
            allBlocks &= c instanceof BlockNode;
        }
        if (allBlocks) {
            long[] d = new long[n];
            long[] l = new long[n];
            for (int m = 0; m < n; m++) {
                BlockNode b = (BlockNode) cs.get(m);
                d[m] = ds.get(m) + b.offset;
                l[m] = b.len;
            }
            return runs(d, l);
        }
        boolean regular = true;
        long step = ds.get(1) - ds.get(0);
        for (int m = 1; m < n && regular; m++) {
            regular = ds.get(m) - ds.get(m - 1) == step
                    && (cs.get(m) == cs.get(0) || cs.get(m).sameShape(cs.get(0)));
        }
        if (regular) {
            return vector(ds.get(0), n, step, cs.get(0));
        }
        long[] d = new long[n];
        Node[] c = new Node[n];
        for (int m = 0; m < n; m++) {
            d[m] = ds.get(m);
            c[m] = leafParent(cs.get(m));
        }
        return new StructNode(d, c);
    }

    /** A bare block becomes a one-instance vector, so that every cursor path ends in a leaf parent. */
    static Node leafParent(Node n) {
        return n instanceof BlockNode b ? new VectorNode(0, 1, 0, b) : n;
    }

    private static Node unwrap(Node n) {
        return n instanceof VectorNode v && v.count == 1 && v.child instanceof BlockNode b ? b.shift(v.offset) : n;
    }
}
