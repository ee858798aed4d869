package org.jspin.datatype;

import java.util.List;

/** {@code MPI_Type_vector}: equally spaced blocks, stride counted in extents of the old type. */
public final class VectorType extends Datatype {
    private final long count;
    private final long blocklength;
    private final long stride;
    private final Datatype old;

    VectorType(long count, long blocklength, long stride, Datatype old) {
        super(new Footprint().addStrided(0, Args.count("count", count),
                Args.mul(stride, Args.type("old", old).extent(), "stride in bytes"),
                Args.nonNegative("blocklength", blocklength), old).bounds());
        this.count = count;
        this.blocklength = blocklength;
        this.stride = stride;
        this.old = old;
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
