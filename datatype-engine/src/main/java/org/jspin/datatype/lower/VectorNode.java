package org.jspin.datatype.lower;

/**
 * {@code count} instances of {@code child}, the k-th at {@code offset + k * stride}. When the child is
 * a {@link BlockNode} this is a leaf parent and {@link #kernel} names the copy kernel chosen for the
 * block length at commit.
 */
public final class VectorNode extends Node {
    /** Byte offset of instance 0. */
    public final long offset;
    /** Number of child instances (at least 2 after normalisation, 1 for a wrapped block). */
    public final long count;
    /** Byte distance between instances; may be zero or negative. */
    public final long stride;
    /** The repeated node. */
    public final Node child;
    /** Copy kernel id of {@code org.jspin.datatype.kernel.CopyKernels} (leaf parents only). */
    public final int kernel;

    VectorNode(long offset, long count, long stride, Node child) {
        super(VECTOR, count * child.size, child.depth + 1);
        this.offset = offset;
        this.count = count;
        this.stride = stride;
        this.child = child;
        this.kernel = child instanceof BlockNode b ? KernelChoice.forBlock(b.len) : -1;
    }

    @Override
    Node shift(long delta) {
        return delta == 0 ? this : new VectorNode(offset + delta, count, stride, child);
    }

    @Override
    boolean sameShape(Node other) {
        return other instanceof VectorNode v && v.offset == offset && v.count == count && v.stride == stride
                && (v.child == child || v.child.sameShape(child));
    }

    @Override
    public long minOffset() {
        return offset + Math.min(0, (count - 1) * stride) + child.minOffset();
    }

    @Override
    public long maxOffset() {
        return offset + Math.max(0, (count - 1) * stride) + child.maxOffset();
    }

    @Override
    public String toString() {
        return "vector(" + offset + ", " + count + ", " + stride + ", " + child + ")";
    }
}
