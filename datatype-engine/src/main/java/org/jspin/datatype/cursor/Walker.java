package org.jspin.datatype.cursor;

import org.jspin.datatype.lower.BlockNode;
import org.jspin.datatype.lower.Node;
import org.jspin.datatype.lower.RunsNode;
import org.jspin.datatype.lower.StructNode;
import org.jspin.datatype.lower.VectorNode;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Position in the packed stream of a message, as a stack of frames from the message node down to
 * the leaf parent that holds the current block: O(depth) state, positioned anywhere in closed form
 * ({@link #seek}: a division per vector level, a binary search per runs or struct level).
 *
 * <p>Frame t holds the node, the byte offset of that node instance's origin, and the index of the
 * current child (vector instance, struct member, or run). {@code blockDone} counts the bytes of the
 * current block already transferred.
 */
public class Walker {
    final Object owner;
    final long count;
    final Node message;
    final long total;
    final Node[] nodes;
    final long[] base;
    final long[] idx;
    int top;
    long blockDone;
    long pos;
    /** Frames entered by descending since the walker was made (the levels a dataloop walk enters). */
    long framesEntered;

    /**
     * @param owner   what the message was built from (the compiled type): walkers of the same owner
     *                and count walk identical messages, so their checkpoints are interchangeable
     * @param count   elements in the message
     * @param message the message tree of {@code CompiledType.message(count)}, or null if empty
     */
    public Walker(Object owner, long count, Node message) {
        this.owner = owner;
        this.count = count;
        this.message = message;
        this.total = message == null ? 0 : message.size;
        int depth = message == null ? 1 : message.depth;
        this.nodes = new Node[depth];
        this.base = new long[depth];
        this.idx = new long[depth];
        seek(0);
    }

    /** @return packed bytes of the whole message */
    public final long total() {
        return total;
    }

    /** @return current packed offset */
    public final long position() {
        return pos;
    }

    /** @return packed bytes from the current position to the end */
    public final long remaining() {
        return total - pos;
    }

    /**
     * Positions the walker at packed byte {@code offset} of the message (0 to {@link #total()}).
     *
     * @throws MpiException ERR_ARG if the offset lies outside the message
     */
    public final void seek(long offset) {
        if (offset < 0 || offset > total) {
            throw new MpiException(ErrorClass.ERR_ARG,
                    "offset " + offset + " is outside the message of " + total + " packed bytes");
        }
        pos = offset;
        blockDone = 0;
        if (offset == total) {
            top = -1;
            return;
        }
        int t = 0;
        Node n = message;
        long b = 0;
        long rem = offset;
        while (true) {
            nodes[t] = n;
            base[t] = b;
            switch (n.kind) {
                case Node.VECTOR -> {
                    VectorNode v = (VectorNode) n;
                    long k = rem / v.child.size;
                    rem -= k * v.child.size;
                    idx[t] = k;
                    if (v.child.kind == Node.BLOCK) {
                        blockDone = rem;
                        top = t;
                        return;
                    }
                    b += v.offset + k * v.stride;
                    n = v.child;
                }
                case Node.RUNS -> {
                    RunsNode r = (RunsNode) n;
                    int e = r.runAt(rem);
                    idx[t] = e;
                    blockDone = rem - r.prefix[e];
                    top = t;
                    return;
                }
                default -> {
                    StructNode s = (StructNode) n;
                    int m = s.childAt(rem);
                    rem -= s.prefix[m];
                    idx[t] = m;
                    b += s.disps[m];
                    n = s.children[m];
                }
            }
            t++;
        }
    }

    /** @return whether the walk has reached the end of the message */
    protected final boolean atEnd() {
        return top < 0;
    }

    /** @return bytes of the current block already passed (0 at a block's start) */
    protected final long blockDone() {
        return blockDone;
    }

    /**
     * Moves {@code bytes} forward inside the current block without copying; the block must have
     * more than {@code bytes} left (use {@link #consumeBlock} to finish it).
     */
    protected final void advanceInBlock(long bytes) {
        pos += bytes;
        blockDone += bytes;
    }

    /** @return frames entered by descending from a finished leaf parent into the next, since creation */
    protected final long framesEntered() {
        return framesEntered;
    }

    /** @return the message tree this walker walks (null for an empty message) */
    protected final Node message() {
        return message;
    }

    /** Moves past the rest of the current block without copying it. */
    protected final void consumeBlock() {
        pos += currentBlockLength() - blockDone;
        stepBlock();
    }

    /** @return byte offset (from the buffer origin) of the current block's first byte */
    protected final long currentBlockOffset() {
        Node n = nodes[top];
        if (n.kind == Node.VECTOR) {
            VectorNode v = (VectorNode) n;
            return base[top] + v.offset + idx[top] * v.stride + ((BlockNode) v.child).offset;
        }
        RunsNode r = (RunsNode) n;
        return base[top] + r.disps[(int) idx[top]];
    }

    /** @return length of the current block */
    protected final long currentBlockLength() {
        Node n = nodes[top];
        if (n.kind == Node.VECTOR) {
            return ((VectorNode) n).child.size;
        }
        return ((RunsNode) n).lens[(int) idx[top]];
    }

    /** Moves to the next block (the current one must have been entirely consumed). */
    final void stepBlock() {
        blockDone = 0;
        Node n = nodes[top];
        long next = ++idx[top];
        long count = n.kind == Node.VECTOR ? ((VectorNode) n).count : ((RunsNode) n).lens.length;
        if (next == count) {
            nextLeafParent();
        }
    }

    /** The current leaf parent is exhausted: pops to the next unfinished frame and descends. */
    final void nextLeafParent() {
        blockDone = 0;
        while (true) {
            if (--top < 0) {
                return;
            }
            Node n = nodes[top];
            long i = ++idx[top];
            if (n.kind == Node.VECTOR) {
                VectorNode v = (VectorNode) n;
                if (i < v.count) {
                    descend(top + 1, v.child, base[top] + v.offset + i * v.stride);
                    return;
                }
            } else {
                StructNode s = (StructNode) n;
                if (i < s.children.length) {
                    descend(top + 1, s.children[(int) i], base[top] + s.disps[(int) i]);
                    return;
                }
            }
        }
    }

    private void descend(int t, Node n, long b) {
        while (true) {
            framesEntered++;
            nodes[t] = n;
            base[t] = b;
            idx[t] = 0;
            if (n.kind == Node.RUNS) {
                break;
            }
            if (n.kind == Node.VECTOR) {
                VectorNode v = (VectorNode) n;
                if (v.child.kind == Node.BLOCK) {
                    break;
                }
                b += v.offset;
                n = v.child;
            } else {
                StructNode s = (StructNode) n;
                b += s.disps[0];
                n = s.children[0];
            }
            t++;
        }
        top = t;
    }

    /** Copies the position into {@code into} (which must come from a walker over the same message). */
    final void saveTo(Checkpoint into) {
        checkSameMessage(into);
        into.top = top;
        into.pos = pos;
        into.blockDone = blockDone;
        if (top >= 0) {
            System.arraycopy(nodes, 0, into.nodes, 0, top + 1);
            System.arraycopy(base, 0, into.base, 0, top + 1);
            System.arraycopy(idx, 0, into.idx, 0, top + 1);
        }
    }

    /** Restores a position saved by {@link #saveTo}. */
    final void loadFrom(Checkpoint from) {
        checkSameMessage(from);
        top = from.top;
        pos = from.pos;
        blockDone = from.blockDone;
        if (top >= 0) {
            System.arraycopy(from.nodes, 0, nodes, 0, top + 1);
            System.arraycopy(from.base, 0, base, 0, top + 1);
            System.arraycopy(from.idx, 0, idx, 0, top + 1);
            nodes[0] = message; // frame 0 is the message node; the other cursor's is an equal copy
        }
    }

    private void checkSameMessage(Checkpoint c) {
        if (c.owner != owner || c.count != count) {
            throw new MpiException(ErrorClass.ERR_ARG, "checkpoint belongs to another message (" + c.count
                    + " elements of " + c.owner + ", this cursor: " + count + " elements of " + owner + ")");
        }
    }

    /** @return a new checkpoint holding the current position */
    public final Checkpoint checkpoint() {
        Checkpoint c = new Checkpoint(owner, count, nodes.length);
        saveTo(c);
        return c;
    }

    /** Overwrites {@code into} with the current position, without allocating. */
    public final void checkpoint(Checkpoint into) {
        saveTo(into);
    }

    /** Returns to the position held by {@code checkpoint}. */
    public final void restore(Checkpoint checkpoint) {
        loadFrom(checkpoint);
    }
}
