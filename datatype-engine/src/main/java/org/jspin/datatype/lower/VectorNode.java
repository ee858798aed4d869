package org.jspin.datatype.lower;

import org.jspin.datatype.kernel.CopyKernel;

/**
 * {@code count} instances of {@code child}, the k-th at {@code offset + k * stride}. When the child is
 * a {@link BlockNode} this is a leaf parent and {@link #kernel} copies its blocks; when the child is
 * a small {@link RunsNode} (a struct-like element) {@link #kernel} copies whole elements. The kernel
 * is chosen once, at commit ({@link KernelAssignment}).
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
    /**
     * Copies this vector's blocks (block child) or whole elements (small runs child); null otherwise.
     * Set at commit before the tree is published, never changed after.
     */
    private CopyKernel kernel;
    /**
     * For a vector of vectors of blocks whose inner stride is long and outer stride short (a
     * transpose: FFT2D's receive type, a matrix's columns of rows): copies the outer vector's blocks
     * for one inner index, walking typed memory in address order. The cursor unpacks whole instances
     * this way, so that the stores, not the loads, are sequential. Null when it would not help.
     */
    private CopyKernel transposed;

    VectorNode(long offset, long count, long stride, Node child) {
        super(VECTOR, Math.multiplyExact(count, child.size), child.depth + 1,
                Math.addExact(Math.addExact(offset, Math.min(0, Math.multiplyExact(count - 1, stride))),
                        child.minOffset()),
                Math.addExact(Math.addExact(offset, Math.max(0, Math.multiplyExact(count - 1, stride))),
                        child.maxOffset()));
        this.offset = offset;
        this.count = count;
        this.stride = stride;
        this.child = child;
    }

    /** @return the block or element kernel (null if this vector has none) */
    public CopyKernel kernel() {
        return kernel;
    }

    /** @return the transposed-unpack kernel (null if this vector has none) */
    public CopyKernel transposed() {
        return transposed;
    }

    void setKernel(CopyKernel k) {
        kernel = k;
    }

    void setTransposed(CopyKernel k) {
        transposed = k;
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
    public String toString() {
        return "vector(" + offset + ", " + count + ", " + stride + ", " + child + ")";
    }
}
