package org.jspin.datatype.lower;

import java.util.IdentityHashMap;
import java.util.Map;

import org.jspin.datatype.kernel.Kernels;

/**
 * The last step of commit: gives every vector of blocks, every vector of small struct-like
 * elements and every list of equal-length runs its specialised copy kernel. Runs at commit (and
 * for the message-level vector once per message count, a cached lookup), so that no kernel is
 * chosen while data moves.
 */
final class KernelAssignment {
    /** Inner strides from this long make a transposed unpack worth it (a store per page otherwise). */
    static final long TRANSPOSE_INNER_STRIDE = 1024;
    /** ... provided the outer stride is at most this, so that the transposed stores are near each other. */
    static final long TRANSPOSE_OUTER_STRIDE = 256;

    private final Map<Node, Boolean> seen = new IdentityHashMap<>();

    private KernelAssignment() {
    }

    /** Assigns kernels throughout {@code root} (null allowed). */
    static void assign(Node root) {
        if (root != null) {
            new KernelAssignment().visit(root);
        }
    }

    private void visit(Node n) {
        if (seen.put(n, Boolean.TRUE) != null) {
            return;
        }
        switch (n) {
            case VectorNode v -> {
                assignOne(v);
                visit(v.child);
            }
            case RunsNode r -> {
                if (r.uniformLen > 0 && r.listed() == null) {
                    r.setListed(Kernels.listed(r.uniformLen));
                }
            }
            case StructNode s -> {
                for (Node c : s.children) {
                    visit(c);
                }
            }
            default -> {
            }
        }
    }

    /** Chooses the kernel of one vector node (idempotent). */
    static void assignOne(VectorNode v) {
        if (v.kernel() != null || v.transposed() != null) {
            return;
        }
        if (v.child instanceof BlockNode b) {
            v.setKernel(Kernels.blocks(b.len, v.stride));
        } else if (v.child instanceof RunsNode r) {
            v.setKernel(Kernels.pattern(r.disps, r.lens, v.stride));
        } else if (v.child instanceof VectorNode w && w.child instanceof BlockNode b && transposable(v, w, b)) {
            v.setTransposed(Kernels.blocks(b.len, v.stride, w.count * b.len));
        }
    }

    /**
     * Whether unpacking {@code v} (outer) of {@code w} (inner) of {@code b} in transposed order pays
     * and is safe: the inner stride is long and the outer short, and no two blocks overlap (outer
     * blocks side by side, the whole outer span within one inner stride), so the order in which the
     * blocks are written cannot change the result.
     */
    private static boolean transposable(VectorNode v, VectorNode w, BlockNode b) {
        return v.count >= 4 && w.stride >= TRANSPOSE_INNER_STRIDE && v.stride <= TRANSPOSE_OUTER_STRIDE
                && v.stride >= b.len && v.stride * (v.count - 1) + b.len <= w.stride;
    }
}
