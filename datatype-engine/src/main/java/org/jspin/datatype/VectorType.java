package org.jspin.datatype;

import java.util.List;

/** {@code MPI_Type_vector}: equally spaced blocks, stride counted in extents of the old type. */
public final class VectorType extends Datatype {
    private final long count;
    private final long blocklength;
    private final long stride;
    private final Datatype old;

    VectorType(long count, long blocklength, long stride, Datatype old) {
        Args.count("count", count);
        Args.type("old", old);
        super(new Footprint().addStrided(0, count, strideBytes(count, stride, old),
                Args.nonNegative("blocklength", blocklength), old).bounds());
        this.count = count;
        this.blocklength = blocklength;
        this.stride = stride;
        this.old = old;
    }

    /** @return the stride in bytes; with fewer than two blocks it places nothing and counts as 0 */
    public long strideBytes() {
        return strideBytes(count, stride, old);
    }

    private static long strideBytes(long count, long stride, Datatype old) {
        return count < 2 ? 0 : Args.mul(stride, old.extent(), "stride in bytes");
    }

    /** @return number of blocks */
    public long count() {
        return count;
    }

    /** @return elements per block */
    public long blocklength() {
        return blocklength;
    }

    /** @return distance between block starts, in extents of {@link #old()} */
    public long stride() {
        return stride;
    }

    /** @return the element type */
    public Datatype old() {
        return old;
    }

    @Override
    public Contents contents() {
        return new Contents(Combiner.VECTOR, new long[] {count, blocklength, stride}, new long[0], List.of(old));
    }
}
