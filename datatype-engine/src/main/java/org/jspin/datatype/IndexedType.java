package org.jspin.datatype;

import java.util.List;

/** {@code MPI_Type_indexed}: blocks of varying length at displacements counted in extents of the old type. */
public final class IndexedType extends Datatype {
    private final long[] blocklengths;
    private final long[] displacements;
    private final Datatype old;

    IndexedType(long[] blocklengths, long[] displacements, Datatype old) {
        long[] bls = Args.nonNegative("blocklengths", blocklengths);
        long[] disps = Args.notNull("displacements", displacements).clone();
        Args.type("old", old);
        super(bounds(bls, disps, old));
        this.blocklengths = bls;
        this.displacements = disps;
        this.old = old;
    }

    private static Footprint.Bounds bounds(long[] bls, long[] disps, Datatype old) {
        Args.sameLength("blocklengths", bls.length, "displacements", disps.length);
        return new Footprint().addBlocks(bls, Footprint.scaled(disps, old.extent()), old).bounds();
    }

    /** @return elements per block */
    public long[] blocklengths() {
        return blocklengths.clone();
    }

    /** @return block displacements, in extents of {@link #old()} */
    public long[] displacements() {
        return displacements.clone();
    }

    /** @return block displacements in bytes (displacements times the old type's extent) */
    public long[] displacementsBytes() {
        return Footprint.scaled(displacements, old.extent());
    }

    /** @return the element type */
    public Datatype old() {
        return old;
    }

    @Override
    public Contents contents() {
        return new Contents(Combiner.INDEXED, LongArrays.concat(new long[] {blocklengths.length}, blocklengths,
                displacements), new long[0], List.of(old));
    }
}
