package org.jspin.datatype;

import java.util.List;

/** {@code MPI_Type_create_hindexed}: blocks of varying length at byte displacements. */
public final class HIndexedType extends Datatype {
    private final long[] blocklengths;
    private final long[] displacementsBytes;
    private final Datatype old;

    HIndexedType(long[] blocklengths, long[] displacementsBytes, Datatype old) {
        long[] bls = Args.nonNegative("blocklengths", blocklengths);
        long[] disps = Args.notNull("displacements_bytes", displacementsBytes).clone();
        Args.type("old", old);
        super(bounds(bls, disps, old));
        this.blocklengths = bls;
        this.displacementsBytes = disps;
        this.old = old;
    }

    private static Footprint.Bounds bounds(long[] bls, long[] disps, Datatype old) {
        Args.sameLength("blocklengths", bls.length, "displacements_bytes", disps.length);
        return new Footprint().addBlocks(bls, disps, old).bounds();
    }

    /** @return elements per block */
    public long[] blocklengths() {
        return blocklengths.clone();
    }

    /** @return block displacements in bytes */
    public long[] displacementsBytes() {
        return displacementsBytes.clone();
    }

    /** @return the element type */
    public Datatype old() {
        return old;
    }

    @Override
    public Contents contents() {
        return new Contents(Combiner.HINDEXED, LongArrays.concat(new long[] {blocklengths.length}, blocklengths),
                displacementsBytes, List.of(old));
    }
}
