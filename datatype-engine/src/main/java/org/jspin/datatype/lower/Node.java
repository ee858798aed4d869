package org.jspin.datatype.lower;

import java.util.Arrays;

/**
 * One node of a committed type's lowered form. Every constructor lowers to four kinds (as in
 * MPICH's yaksa): a contiguous {@link BlockNode}, a strided {@link VectorNode}, variable-length
 * contiguous {@link RunsNode runs}, and a {@link StructNode} sequence of arbitrary children. All
 * offsets are bytes relative to the origin of the node's instance; {@link #size} is the number of
 * bytes one instance packs to. The node kind is an int so that the cursor dispatches with a
 * {@code tableswitch}, not a virtual call.
 *
 * <p>A <em>leaf parent</em> is a vector of blocks or a runs node: the frames at which the cursor
 * hands whole batches of blocks to a copy kernel.
 */
public abstract sealed class Node permits BlockNode, VectorNode, RunsNode, StructNode {
    /** Kind of {@link BlockNode}. */
    public static final int BLOCK = 0;
    /** Kind of {@link VectorNode}. */
    public static final int VECTOR = 1;
    /** Kind of {@link RunsNode}. */
    public static final int RUNS = 2;
    /** Kind of {@link StructNode}. */
    public static final int STRUCT = 3;

    /** One of {@link #BLOCK}, {@link #VECTOR}, {@link #RUNS}, {@link #STRUCT}. */
    public final int kind;
    /** Packed bytes in one instance; positive for every node the normaliser keeps. */
    public final long size;
    /** Frames a cursor needs below and including this node. */
    public final int depth;
    private final long minOffset;
    private final long maxOffset;

    /**
     * @param minOffset lowest byte offset the node touches, computed once here so that a cursor's
     *                  buffer check is O(1) (overflow throws ArithmeticException, which the message
     *                  builder turns into an ERR_COUNT)
     * @param maxOffset one past the highest
     */
    Node(int kind, long size, int depth, long minOffset, long maxOffset) {
        this.kind = kind;
        this.size = size;
        this.depth = depth;
        this.minOffset = minOffset;
        this.maxOffset = maxOffset;
    }

    /** @return this node displaced by {@code delta} bytes */
    abstract Node shift(long delta);

    /** @return whether {@code other} has the same type map as this node (structurally) */
    abstract boolean sameShape(Node other);

    /** @return lowest byte offset this node touches */
    public final long minOffset() {
        return minOffset;
    }

    /** @return one past the highest byte offset this node touches */
    public final long maxOffset() {
        return maxOffset;
    }

    /** @return the index of the entry holding packed byte {@code rel}, given each entry's packed start */
    static int entryAt(long[] prefix, long rel) {
        int i = Arrays.binarySearch(prefix, rel);
        return i >= 0 ? i : -i - 2;
    }
}
