package org.jspin.datatype.lower;

import java.util.IdentityHashMap;
import java.util.Map;

import org.jspin.datatype.kernel.Kernels;

/**
 * The last step of commit: gives every vector of blocks, and every vector of small struct-like
 * elements, its specialised copy kernel. Runs at commit (and once per cursor for the message-level
 * vector, a cached lookup), so that no kernel is chosen while data moves.
 */
final class KernelAssignment {
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
        if (v.kernel != null) {
            return;
        }
        if (v.child instanceof BlockNode b) {
            v.kernel = Kernels.blocks(b.len, v.stride);
        } else if (v.child instanceof RunsNode r) {
            v.kernel = Kernels.pattern(r.disps, r.lens, v.stride);
        }
    }
}
