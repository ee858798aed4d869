package org.jspin.nic.sim.strategy;

import org.jspin.datatype.lower.Node;
import org.jspin.datatype.lower.RunsNode;
import org.jspin.datatype.lower.StructNode;
import org.jspin.datatype.lower.VectorNode;
import org.jspin.nic.sim.work.HandlerWork;

/**
 * Counts what closed-form positioning at a packed offset costs, following the path the datatype
 * engine's {@code Walker.seek} takes: one division per vector level, and one probe per step of the
 * binary search over an indexed (runs) or struct level ({@code floor(log2 n) + 1} for n entries).
 */
public final class SeekCost {
    private SeekCost() {
    }

    /** Adds to {@code work} the cost of positioning at {@code offset} of {@code message}. */
    public static void count(Node message, long offset, HandlerWork work) {
        Node n = message;
        long rem = offset;
        while (n != null) {
            switch (n.kind) {
                case Node.VECTOR -> {
                    VectorNode v = (VectorNode) n;
                    work.divisions++;
                    long k = rem / v.child.size;
                    rem -= k * v.child.size;
                    n = v.child.kind == Node.BLOCK ? null : v.child;
                }
                case Node.RUNS -> {
                    work.searchSteps += probes(((RunsNode) n).lens.length);
                    n = null;
                }
                case Node.STRUCT -> {
                    StructNode s = (StructNode) n;
                    work.searchSteps += probes(s.children.length);
                    int m = s.childAt(rem);
                    rem -= s.prefix[m];
                    n = s.children[m];
                }
                default -> n = null;
            }
        }
    }

    /** @return probes of a binary search over {@code n} sorted entries */
    static long probes(int n) {
        return 64 - Long.numberOfLeadingZeros(n);
    }
}
