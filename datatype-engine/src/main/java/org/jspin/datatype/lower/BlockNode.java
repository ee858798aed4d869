package org.jspin.datatype.lower;

/** {@code len} contiguous bytes at {@code offset}. */
public final class BlockNode extends Node {
    /** Byte offset of the block. */
    public final long offset;
    /** Length in bytes. */
    public final long len;

    BlockNode(long offset, long len) {
        super(BLOCK, len, 0, offset, Math.addExact(offset, len));
        this.offset = offset;
        this.len = len;
    }

    @Override
    Node shift(long delta) {
        return delta == 0 ? this : new BlockNode(offset + delta, len);
    }

    @Override
    boolean sameShape(Node other) {
        return other instanceof BlockNode b && b.offset == offset && b.len == len;
    }

    @Override
    public String toString() {
        return "block(" + offset + ", " + len + ")";
    }
}
