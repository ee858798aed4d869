package org.jspin.nic.sim.strategy;

import org.jspin.datatype.lower.BlockNode;
import org.jspin.datatype.lower.Node;
import org.jspin.datatype.lower.RunsNode;
import org.jspin.datatype.lower.VectorNode;
import org.jspin.nic.sim.handler.Dma;
import org.jspin.nic.sim.work.HandlerWork;

/**
 * {@code specialized}: for shapes whose offsets have a closed formula (contiguous, vector and hvector,
 * vectors of vectors, and indexed blocks of one length, possibly repeated by vectors), each packet's
 * handler computes where its first byte goes (a division per level) and steps an odometer from
 * there. No state is shared between packets; the NIC holds only the shape's parameters.
 */
public final class Specialized extends PayloadStrategy {
    /** The strategy's name. */
    public static final String NAME = "specialized";

    private final long[] counts;
    private final long[] strides;
    private final long[] childSizes;
    private final long base;
    private final long leafLen;
    /** Displacements of equal-length indexed blocks at the bottom, or null for a plain block. */
    private final long[] runs;
    private final long[] idx;

    Specialized(MessageShape shape) {
        super(SPECIALIZED, NAME, shape, nicBytes(shape));
        int levels = 0;
        Node n = shape.message();
        while (n.kind == Node.VECTOR) {
            levels++;
            n = ((VectorNode) n).child;
        }
        counts = new long[levels];
        strides = new long[levels];
        childSizes = new long[levels];
        idx = new long[levels];
        long b = 0;
        n = shape.message();
        for (int l = 0; l < levels; l++) {
            VectorNode v = (VectorNode) n;
            counts[l] = v.count;
            strides[l] = v.stride;
            childSizes[l] = v.child.size;
            b += v.offset;
            n = v.child;
        }
        if (n.kind == Node.BLOCK) {
            b += ((BlockNode) n).offset;
            leafLen = n.size;
            runs = null;
        } else {
            RunsNode r = (RunsNode) n;
            leafLen = r.uniformLen;
            runs = r.disps;
        }
        base = b;
    }

    /** @return why {@code shape} has no closed formula, or null if it has one */
    static String notApplicable(MessageShape shape) {
        Node n = shape.message();
        if (n == null) {
            return null;
        }
        while (n.kind == Node.VECTOR) {
            n = ((VectorNode) n).child;
        }
        if (n.kind == Node.STRUCT) {
            return "the type map has a struct of different members (no closed formula for its offsets)";
        }
        if (n.kind == Node.RUNS && ((RunsNode) n).uniformLen == 0) {
            return "the type map has indexed blocks of different lengths (no closed formula for its offsets)";
        }
        return null;
    }

    /** @return NIC bytes of the shape's parameters: 24 per level, 16 for the leaf, 8 per indexed displacement */
    static long nicBytes(MessageShape shape) {
        Node n = shape.message();
        long b = 16;
        while (n != null && n.kind == Node.VECTOR) {
            b += 24;
            n = ((VectorNode) n).child;
        }
        if (n instanceof RunsNode r) {
            b += 8L * r.disps.length;
        }
        return b;
    }

    void handle(long offset, int length, Dma dma, HandlerWork work) {
        long rem = offset;
        long addr = base;
        int levels = counts.length;
        for (int l = 0; l < levels; l++) {
            long k = rem / childSizes[l];
            rem -= k * childSizes[l];
            idx[l] = k;
            addr += k * strides[l];
            work.divisions++;
        }
        int e = 0;
        if (runs != null) {
            e = (int) (rem / leafLen);
            rem -= e * leafLen;
            work.divisions++;
        }
        long within = rem;
        long left = length;
        while (true) {
            long piece = Math.min(leafLen - within, left);
            dma.piece(addr + (runs == null ? 0 : runs[e]) + within, piece, work);
            work.blocks++;
            left -= piece;
            if (left == 0) {
                return;
            }
            within = 0;
            if (runs != null && ++e < runs.length) {
                continue;
            }
            e = 0;
            for (int l = levels - 1; l >= 0; l--) {
                addr += strides[l];
                if (++idx[l] < counts[l]) {
                    break;
                }
                addr -= counts[l] * strides[l];
                idx[l] = 0;
            }
        }
    }
}
