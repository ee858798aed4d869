package org.jspin.datatype;

import java.util.List;

/** {@code MPI_Type_create_hvector}: equally spaced blocks, stride in bytes. */
public final class HVectorType extends Datatype {
    private final long count;
    private final long blocklength;
    private final long strideBytes;
    private final Datatype old;

    HVectorType(long count, long blocklength, long strideBytes, Datatype old) {
        super(new Footprint().addStrided(0, Args.count("count", count), strideBytes,
                Args.nonNegative("blocklength", blocklength), Args.type("old", old)).bounds());
        this.count = count;
        this.blocklength = blocklength;
        this.strideBytes = strideBytes;
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

    /** @return distance between block starts in bytes */
    public long strideBytes() {
        return strideBytes;
    }

    /** @return the element type */
    public Datatype old() {
        return old;
    }

    @Override
    public Contents contents() {
        return new Contents(Combiner.HVECTOR, new long[] {count, blocklength}, new long[] {strideBytes},
                List.of(old));
    }
}
