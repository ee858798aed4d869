package org.jspin.nic.sim.strategy;

import java.util.IdentityHashMap;

import org.jspin.datatype.lower.Node;
import org.jspin.datatype.lower.RunsNode;
import org.jspin.datatype.lower.StructNode;
import org.jspin.datatype.lower.VectorNode;

/**
 * Bytes of NIC memory the datatype's description (its dataloops) takes, each distinct node counted
 * once: a block 16 B (offset, length), a vector 32 B (offset, count, stride, child), a runs level
 * 8 B plus 16 B per run (displacement, length), a struct 8 B plus 16 B per child (displacement,
 * child). A strategy that seeks in closed form also needs the prefix arrays of runs and struct
 * levels (8 B per entry), to binary-search packed offsets.
 */
public final class Description {
    private Description() {
    }

    /** @return description bytes of {@code message}, with the prefix arrays if {@code withPrefixes} */
    public static long bytes(Node message, boolean withPrefixes) {
        return message == null ? 0 : bytes(message, withPrefixes, new IdentityHashMap<>());
    }

    private static long bytes(Node n, boolean prefixes, IdentityHashMap<Node, Boolean> seen) {
        if (seen.put(n, Boolean.TRUE) != null) {
            return 0;
        }
        return switch (n.kind) {
            case Node.VECTOR -> 32 + bytes(((VectorNode) n).child, prefixes, seen);
            case Node.RUNS -> {
                int runs = ((RunsNode) n).lens.length;
                yield 8 + 16L * runs + (prefixes ? 8L * runs : 0);
            }
            case Node.STRUCT -> {
                StructNode s = (StructNode) n;
                long b = 8 + 16L * s.children.length + (prefixes ? 8L * s.children.length : 0);
                for (Node c : s.children) {
                    b += bytes(c, prefixes, seen);
                }
                yield b;
            }
            default -> 16;
        };
    }
}
